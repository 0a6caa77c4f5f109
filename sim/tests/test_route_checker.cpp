// RouteChecker: a pair without a route is reported once it is used, whatever the host
// list it comes in, and a host list is only trusted wholesale once every pair of it was
// checked. Each case runs in a forked child (one SimGrid engine per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "model/platform_check.hpp"
#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

namespace sg4 = simgrid::s4u;

/// Hosts a, b, c in a Full zone where only a <-> b has a route.
std::vector<sg4::Host*> hosts_with_one_route()
{
  auto* zone = engine_with_full_zone("world");
  for (const char* h : {"a", "b", "c"})
    zone->create_host(h, 1e9);
  auto* link = zone->create_link("ab", 1e9)->seal();
  zone->add_route(sg4::Host::by_name("a")->get_netpoint(), sg4::Host::by_name("b")->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(link)}, true);
  zone->seal();
  return {sg4::Host::by_name("a"), sg4::Host::by_name("b"), sg4::Host::by_name("c")};
}

TEST(RouteChecker, AnAllPairsListIsTrustedOnlyForItsOwnHosts)
{
  EXPECT_EQ(run_in_child([] {
              auto h = hosts_with_one_route();
              RouteChecker routes;
              // a <-> b all-to-all: fine, twice (the second time from the list memo); trusted
              // only once checked (a job's runner then skips building its pairs).
              const std::vector<sg4::Host*> ab = {h[0], h[1]};
              if (routes.trusted(ab) || !routes.problem(ab, PairBytes::from_dense({0, 1, 1, 0}, 2)).empty() ||
                  !routes.trusted(ab) || !routes.problem(ab, PairBytes::from_dense({0, 1, 1, 0}, 2)).empty())
                return 1;
              // The list a, b, c used only on a -> b is fine, but must not be trusted
              // wholesale: a -> c on the same list has no route and is reported.
              const PairBytes only_a_to_b = PairBytes::from_dense({0, 1, 0, 0, 0, 0, 0, 0, 0}, 3);
              const PairBytes only_a_to_c = PairBytes::from_dense({0, 0, 1, 0, 0, 0, 0, 0, 0}, 3);
              if (!routes.problem(h, only_a_to_b).empty() || routes.trusted(h))
                return 2;
              const std::string why = routes.problem(h, only_a_to_c);
              return why.find("'a'") != std::string::npos && why.find("'c'") != std::string::npos ? 0 : 3;
            }),
            0);
}

TEST(RouteChecker, AMissingPairIsReportedEveryTimeItIsUsed)
{
  EXPECT_EQ(run_in_child([] {
              auto h = hosts_with_one_route();
              RouteChecker routes;
              const std::vector<sg4::Host*> ac = {h[0], h[2]};
              // Failing pairs are not remembered as checked: the second use is reported too.
              return !routes.problem(ac, PairBytes::from_dense({0, 1, 0, 0}, 2)).empty() &&
                             !routes.problem(ac, PairBytes::from_dense({0, 1, 0, 0}, 2)).empty()
                         ? 0
                         : 1;
            }),
            0);
}

TEST(RouteChecker, VisitingAllRoutesHandsOverEachRouteAndReportsTheFirstMissingOne)
{
  EXPECT_EQ(
      run_in_child([] {
        auto h = hosts_with_one_route();
        RouteChecker routes;
        // a, b: the two ordered pairs, each over the one link "ab", in row-major order.
        std::vector<std::string> seen;
        const std::string fine = routes.visit_all_routes({h[0], h[1]}, [&](size_t i, size_t j, RouteMemo::Route route) {
          seen.push_back(std::to_string(i) + std::to_string(j) + ":" +
                         (route.size == 1 ? routes.route_memo().link(route.links[0])->get_name() : std::string("?")));
        });
        if (!fine.empty() || seen != std::vector<std::string>{"01:ab", "10:ab"})
          return 1;
        // a, b, c: a -> b is visited, a -> c has no route and is reported, naming both.
        seen.clear();
        const std::string why = routes.visit_all_routes(
            h, [&](size_t i, size_t j, RouteMemo::Route) { seen.push_back(std::to_string(i) + std::to_string(j)); });
        if (seen != std::vector<std::string>{"01"} || why.find("'a'") == std::string::npos ||
            why.find("'c'") == std::string::npos)
          return 2;
        // A failed visit does not make the list trusted: a -> c is still reported.
        return routes.problem(h, PairBytes::from_dense({0, 0, 1, 0, 0, 0, 0, 0, 0}, 3)).empty() ? 3 : 0;
      }),
      0);
}

} // namespace
} // namespace datasched::testing
