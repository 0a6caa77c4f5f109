// RouteMemo: a host pair's route kept once routed, its links numbered once; and through
// RouteChecker::visit_all_routes, lists that share pairs get the very routes SimGrid gives,
// whatever their order. Each case runs in a forked child (one SimGrid engine per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "model/platform_check.hpp"
#include "model/route_memo.hpp"
#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

namespace sg4 = simgrid::s4u;

/// Hosts a, b, c in a Full zone: a-b over "ab"; a-c over "ac" then "hub" (a FATPIPE);
/// b-c over "bc" then "hub". Symmetric routes.
std::vector<sg4::Host*> three_hosts()
{
  auto* zone = engine_with_full_zone("world");
  for (const char* h : {"a", "b", "c"})
    zone->create_host(h, 1e9);
  auto* ab  = zone->create_link("ab", 1e9)->seal();
  auto* ac  = zone->create_link("ac", 1e9)->seal();
  auto* bc  = zone->create_link("bc", 1e9)->seal();
  auto* hub = zone->create_link("hub", 1e9)->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)->seal();
  auto np   = [](const char* h) { return sg4::Host::by_name(h)->get_netpoint(); };
  zone->add_route(np("a"), np("b"), nullptr, nullptr, {sg4::LinkInRoute(ab)}, true);
  zone->add_route(np("a"), np("c"), nullptr, nullptr, {sg4::LinkInRoute(ac), sg4::LinkInRoute(hub)}, true);
  zone->add_route(np("b"), np("c"), nullptr, nullptr, {sg4::LinkInRoute(bc), sg4::LinkInRoute(hub)}, true);
  zone->seal();
  return {sg4::Host::by_name("a"), sg4::Host::by_name("b"), sg4::Host::by_name("c")};
}

std::string names(const RouteMemo& memo, RouteMemo::Route route)
{
  std::string out;
  for (std::uint32_t k = 0; k < route.size; ++k)
    out += (k > 0 ? "," : "") + memo.link(route.links[k])->get_name();
  return out;
}

std::string simgrid_route(sg4::Host* src, sg4::Host* dst)
{
  std::vector<sg4::Link*> links;
  src->route_to(dst, links, nullptr);
  std::string out;
  for (size_t k = 0; k < links.size(); ++k)
    out += (k > 0 ? "," : "") + links[k]->get_name();
  return out;
}

TEST(RouteMemo, AKeptRouteIsFoundAndALinkHasOneNumber)
{
  EXPECT_EQ(run_in_child([] {
              auto h = three_hosts();
              RouteMemo memo;
              const auto a = memo.host_number(h[0]), b = memo.host_number(h[1]), c = memo.host_number(h[2]);
              RouteMemo::Route route;
              if (memo.find(a, c, route))
                return 1; // nothing kept yet
              std::vector<sg4::Link*> links;
              h[0]->route_to(h[2], links, nullptr);
              memo.keep(a, c, links);
              links.clear();
              h[1]->route_to(h[2], links, nullptr);
              memo.keep(b, c, links);
              if (!memo.find(a, c, route) || names(memo, route) != "ac,hub" || memo.find(c, a, route))
                return 2;
              // "hub" is on both routes: one number, three links in all; its policy kept.
              if (memo.link_count() != 3 || !memo.find(b, c, route) || names(memo, route) != "bc,hub" ||
                  !memo.fatpipe(route.links[1]) || memo.fatpipe(route.links[0]))
                return 3;
              return memo.host_number(h[2]) == c ? 0 : 4; // a host keeps its number
            }),
            0);
}

TEST(RouteMemo, TheBoundEmptiesItBetweenUsesAndKeepsTooLargeListsOut)
{
  EXPECT_EQ(run_in_child([] {
              auto h = three_hosts();
              RouteMemo small(64);
              std::vector<sg4::Link*> links;
              h[0]->route_to(h[2], links, nullptr);
              small.keep(small.host_number(h[0]), small.host_number(h[2]), links);
              small.trim(); // past 64 bytes: emptied, numbers restart
              RouteMemo::Route route;
              if (small.link_count() != 0 || small.find(small.host_number(h[0]), small.host_number(h[2]), route))
                return 1;
              RouteMemo large;
              large.keep(large.host_number(h[0]), large.host_number(h[2]), links);
              large.trim(); // within its bound: kept
              if (!large.find(large.host_number(h[0]), large.host_number(h[2]), route))
                return 2;
              // n x n slots of 4 bytes within half the bound: 11 hosts (484 B) fit in 1 KiB, 12 (576 B) do not.
              return RouteMemo(1024).fits(11) && !RouteMemo(1024).fits(12) ? 0 : 3;
            }),
            0);
}

TEST(RouteMemo, ListsSharingPairsGetSimGridsRoutesInAnyOrder)
{
  EXPECT_EQ(run_in_child([] {
              auto h = three_hosts();
              RouteChecker routes;
              int failed = 0;
              auto check = [&](const std::vector<sg4::Host*>& list) {
                const std::string why = routes.visit_all_routes(list, [&](size_t i, size_t j, RouteMemo::Route r) {
                  if (names(routes.route_memo(), r) != simgrid_route(list[i], list[j]))
                    failed++;
                });
                if (!why.empty())
                  failed++;
              };
              check({h[0], h[1], h[2]}); // routed and kept
              check({h[2], h[0]});       // c -> a, a -> c from the memo
              check({h[1], h[2], h[0]}); // every pair from the memo, in another order
              return failed;
            }),
            0);
}

} // namespace
} // namespace datasched::testing
