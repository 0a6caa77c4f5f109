// The project's SimGrid patches (simgrid/patches/), checked on SimGrid directly: ptasks
// under host/model:ptask_L07 with its default solver (fair-bottleneck), on platforms
// built in code, against closed-form dates. Each case runs in a forked child (one
// SimGrid engine per process).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

namespace sg4 = simgrid::s4u;

constexpr double GB = 1e9;

/// One ptask: its hosts (by name), row-major bytes, and the priority given right after
/// start() (1 = none given).
struct Task {
  std::vector<std::string> hosts;
  std::vector<double> bytes;
  double priority = 1;
};

struct Link {
  std::string name;
  double bandwidth = 1 * GB;
  double latency   = 0;
  bool fatpipe     = false;
};

/// (source, destination, links) of a one-way route.
struct Route {
  std::string src;
  std::string dst;
  std::vector<std::string> links;
};

/// The SimGrid engine of this (child) process, with `config` (e.g. "host/ptask-route-cache:0")
/// if not empty, and the platform: hosts at 1 Gf, the links, the routes.
void build_platform(const std::vector<std::string>& hosts, const std::vector<Link>& links,
                    const std::vector<Route>& routes, const std::string& config = "")
{
  int argc                  = 3;
  char name[]               = "test";
  char model[]              = "--cfg=host/model:ptask_L07";
  char quiet[]              = "--log=root.thres:critical";
  char* argv[]              = {name, model, quiet, nullptr};
  static const auto* engine = new sg4::Engine(&argc, argv);
  (void)engine;
  if (!config.empty())
    sg4::Engine::set_config(config);
  auto* zone = sg4::create_full_zone("world");
  for (const auto& h : hosts)
    zone->create_host(h, 1e9);
  for (const auto& l : links) {
    auto* link = zone->create_link(l.name, l.bandwidth)->set_latency(l.latency);
    if (l.fatpipe)
      link->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    link->seal();
  }
  for (const auto& r : routes) {
    std::vector<sg4::LinkInRoute> in_route;
    for (const auto& l : r.links)
      in_route.emplace_back(sg4::Link::by_name(l));
    zone->add_route(sg4::Host::by_name(r.src)->get_netpoint(), sg4::Host::by_name(r.dst)->get_netpoint(), nullptr,
                    nullptr, in_route, false);
  }
  zone->seal();
}

/// Waits for every activity of `running` (execs or comms, started by the calling actor);
/// their completion dates, in their order.
template <class ActivityPtr>
std::vector<double> completion_dates_of(std::vector<ActivityPtr> running)
{
  std::vector<double> dates(running.size(), -1);
  std::vector<size_t> index(running.size());
  for (size_t i = 0; i < index.size(); ++i)
    index[i] = i;
  while (!running.empty()) {
    const auto done    = static_cast<size_t>(ActivityPtr::element_type::wait_any(running));
    dates[index[done]] = sg4::Engine::get_clock();
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(done));
    index.erase(index.begin() + static_cast<std::ptrdiff_t>(done));
  }
  return dates;
}

sg4::ExecPtr start_task(const Task& task)
{
  std::vector<sg4::Host*> where;
  for (const auto& h : task.hosts)
    where.push_back(sg4::Host::by_name(h));
  auto exec = sg4::this_actor::exec_init(where, std::vector<double>(where.size(), 0.0), task.bytes);
  exec->start();
  if (task.priority != 1)
    exec->update_priority(task.priority);
  return exec;
}

/// Builds the platform, starts every task at 0, and returns their completion dates; in
/// the calling (child) process.
std::vector<double> completion_dates(const std::vector<std::string>& hosts, const std::vector<Link>& links,
                                     const std::vector<Route>& routes, const std::vector<Task>& tasks)
{
  build_platform(hosts, links, routes);
  std::vector<double> dates(tasks.size(), -1);
  sg4::Actor::create("starter", sg4::Host::by_name(hosts.front()), [&tasks, &dates]() {
    std::vector<sg4::ExecPtr> running;
    for (const auto& task : tasks)
      running.push_back(start_task(task));
    dates = completion_dates_of(running);
  });
  sg4::Engine::get_instance()->run();
  return dates;
}

/// 0 if every date is within `tol` of its expected value; else prints them, returns 1.
int check(const std::vector<double>& got, const std::vector<double>& expected, double tol = 1e-6)
{
  bool ok = got.size() == expected.size();
  for (size_t i = 0; ok && i < got.size(); ++i)
    ok = std::fabs(got[i] - expected[i]) <= tol;
  if (!ok)
    for (size_t i = 0; i < got.size(); ++i)
      std::fprintf(stderr, "task %zu: got %.9f, expected %.9f\n", i, got[i], i < expected.size() ? expected[i] : -1);
  return ok ? 0 : 1;
}

/// Two single-flow ptasks (1 GB a -> b and 2 GB c -> d) through one 1 GB/s link of
/// latency `latency`, priorities p1 and p2 given right after start().
std::vector<double> two_tasks_on_one_link(double p1, double p2, double latency)
{
  return completion_dates({"a", "b", "c", "d"}, {{"shared", 1 * GB, latency}},
                          {{"a", "b", {"shared"}}, {"c", "d", {"shared"}}},
                          {{{"a", "b"}, {0, 1 * GB, 0, 0}, p1}, {{"c", "d"}, {0, 2 * GB, 0, 0}, p2}});
}

// Patch 0001 (weighted fair-bottleneck). Shares p1/(p1+p2) and p2/(p1+p2) of 1 GB/s: the
// 1 GB task ends at t1 = 1 / share1 (if first), the other has moved share2 x t1 and
// moves the rest alone: t2 = t1 + (2 - share2 x t1).

TEST(SimgridPatches, EqualPrioritiesShareALinkEqually)
{
  // 0.5 GB/s each: t1 = 2 s; then 1 GB left alone: t2 = 3 s (unpatched SimGrid too).
  EXPECT_EQ(run_in_child([] { return check(two_tasks_on_one_link(1, 1, 0), {2.0, 3.0}); }), 0);
}

TEST(SimgridPatches, PrioritiesThreeToOneGiveThreeQuartersOfTheLink)
{
  // 0.75 / 0.25 GB/s: t1 = 4/3 s; t2 = 4/3 + (2 - 1/3) = 3 s.
  EXPECT_EQ(run_in_child([] { return check(two_tasks_on_one_link(3, 1, 0), {4.0 / 3, 3.0}); }), 0);
}

TEST(SimgridPatches, AMillionToOneIsStrictPriorityInPractice)
{
  // share1 = 1e6 / (1e6 + 1): t1 = 1 + 1e-6 s; t2 = t1 + (2 - t1 / (1e6 + 1)) = 3 s.
  const double t1 = (1e6 + 1) / 1e6;
  EXPECT_EQ(run_in_child([t1] { return check(two_tasks_on_one_link(1e6, 1, 0), {t1, 3.0}); }), 0);
}

TEST(SimgridPatches, ALowerPriorityOnTheLargerTaskIsTheSameRule)
{
  // priorities 1 : 3 -> 0.25 / 0.75 GB/s: the 2 GB task ends first at 8/3 s, having
  // left the 1 GB task 1 - 2/3 = 1/3 GB, moved alone: t1 = 8/3 + 1/3 = 3 s.
  EXPECT_EQ(run_in_child([] { return check(two_tasks_on_one_link(1, 3, 0), {3.0, 8.0 / 3}); }), 0);
}

// Patch 0003 (priorities kept across the latency): with a latency lambda, each task
// first pays lambda, then shares as above: every date is lambda + its value above. An
// unpatched L07 would give lambda + (2, 3) (priority reset to 1 after the latency).

TEST(SimgridPatches, APriorityGivenDuringTheLatencyAppliesOnceItIsPaid)
{
  const double lat = 1e-3;
  EXPECT_EQ(run_in_child([lat] { return check(two_tasks_on_one_link(3, 1, lat), {lat + 4.0 / 3, lat + 3.0}); }), 0);
}

TEST(SimgridPatches, NoPriorityWithLatencyIsUnchanged)
{
  const double lat = 1e-3;
  EXPECT_EQ(run_in_child([lat] { return check(two_tasks_on_one_link(1, 1, lat), {lat + 2.0, lat + 3.0}); }), 0);
}

// Patch 0002 (linear-time construction): the per-link loads of an all-to-all are
// gathered in one pass; a shared link sums its flows, a FATPIPE link takes the largest.

std::vector<double> all_to_all(double backbone_bandwidth, bool with_backbone)
{
  // h0..h3, each behind its own 1 GB/s SHARED link l_i; h_i -> h_j crosses l_i, (the
  // FATPIPE backbone), l_j; 1 GB per ordered pair.
  std::vector<std::string> hosts = {"h0", "h1", "h2", "h3"};
  std::vector<Link> links        = {{"l0"}, {"l1"}, {"l2"}, {"l3"}, {"bb", backbone_bandwidth, 0, true}};
  std::vector<Route> routes;
  for (size_t i = 0; i < hosts.size(); ++i)
    for (size_t j = 0; j < hosts.size(); ++j)
      if (i != j) {
        std::vector<std::string> via = {"l" + std::to_string(i)};
        if (with_backbone)
          via.emplace_back("bb");
        via.push_back("l" + std::to_string(j));
        routes.push_back({hosts[i], hosts[j], via});
      }
  std::vector<double> bytes(16, 1 * GB);
  for (size_t i = 0; i < 4; ++i)
    bytes[i * 4 + i] = 0;
  return completion_dates(hosts, links, routes, {{hosts, bytes}});
}

TEST(SimgridPatches, AllToAllLoadsEachSharedLinkWithTheSumOfItsFlows)
{
  // l_i carries 3 GB out and 3 GB in: 6 GB at 1 GB/s = 6 s.
  EXPECT_EQ(run_in_child([] { return check(all_to_all(0, false), {6.0}); }), 0);
}

TEST(SimgridPatches, AFatpipeLinkCarriesOnlyTheLargestFlow)
{
  // The 0.1 GB/s FATPIPE backbone limits each flow to 0.1 GB/s: its load is the largest
  // flow (1 GB), 10 s, not the 12 GB sum (120 s); the l_i need only 6 s.
  EXPECT_EQ(run_in_child([] { return check(all_to_all(0.1 * GB, true), {10.0}); }), 0);
}

TEST(SimgridPatches, TcpGammaBoundUsesTheLargestLatencyTimesBytes)
{
  // One 0.1 GB flow over a 1 GB/s link of latency 0.1 s: L07 bounds the rate by
  // gamma / (2 x latency) = 4194304 / 0.2 B/s (its default TCP window gamma), so
  // t = 0.1 + 0.1e9 x 0.2 / 4194304 s.
  const double expected = 0.1 + 0.1 * GB * 0.2 / 4194304;
  EXPECT_EQ(run_in_child([expected] {
              return check(completion_dates({"a", "b"}, {{"slow", 1 * GB, 0.1}}, {{"a", "b", {"slow"}}},
                                            {{{"a", "b"}, {0, 0.1 * GB, 0, 0}}}),
                           {expected});
            }),
            0);
}

// Patch 0004 (routes kept per host list): a ptask on a host list seen before reads its
// routes from the cache. Tasks run one after another here, so each date is the previous
// one plus the task's own time alone; a cache that gave another route, latency or link
// policy than routing would change that time.

/// A latency change of one link (or, with `destroy_host`, that host's destruction), made
/// just before task `before_task` starts.
struct LatencyChange {
  size_t before_task = 0;
  std::string link;
  double latency = 0;
  std::string destroy_host;
};

/// Builds the platform (with `config`), runs the tasks one after another (each starts
/// when the previous ends), and returns their completion dates.
std::vector<double> dates_one_after_another(const std::vector<std::string>& hosts, const std::vector<Link>& links,
                                            const std::vector<Route>& routes, const std::vector<Task>& tasks,
                                            const std::string& config, const std::vector<LatencyChange>& changes = {})
{
  build_platform(hosts, links, routes, config);
  std::vector<double> dates(tasks.size(), -1);
  sg4::Actor::create("runner", sg4::Host::by_name(hosts.front()), [&tasks, &dates, &changes]() {
    for (size_t i = 0; i < tasks.size(); ++i) {
      for (const auto& change : changes)
        if (change.before_task == i) {
          if (!change.destroy_host.empty())
            sg4::Host::by_name(change.destroy_host)->destroy();
          else
            sg4::Link::by_name(change.link)->set_latency(change.latency);
        }
      start_task(tasks[i])->wait();
      dates[i] = sg4::Engine::get_clock();
    }
  });
  sg4::Engine::get_instance()->run();
  return dates;
}

/// The 4-host platform of all_to_all() with a 0.1 GB/s FATPIPE backbone; tasks: the whole all-to-all, one 1 GB flow h0 -> h1 alone, the
/// whole all-to-all again.
std::vector<double> repeated_exchanges(const std::string& config, const std::vector<LatencyChange>& changes = {})
{
  std::vector<std::string> hosts = {"h0", "h1", "h2", "h3", "spare"};
  std::vector<Link> links        = {{"l0"}, {"l1"}, {"l2"}, {"l3"}, {"bb", 0.1 * GB, 0, true}};
  std::vector<Route> routes;
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = 0; j < 4; ++j)
      if (i != j)
        routes.push_back({hosts[i], hosts[j], {"l" + std::to_string(i), "bb", "l" + std::to_string(j)}});
  const std::vector<std::string> workers(hosts.begin(), hosts.begin() + 4); // "spare" takes no part
  std::vector<double> everyone(16, 1 * GB);
  for (size_t i = 0; i < 4; ++i)
    everyone[i * 4 + i] = 0;
  std::vector<double> one_pair(16, 0);
  one_pair[1] = 1 * GB;
  return dates_one_after_another(hosts, links, routes, {{workers, everyone}, {workers, one_pair}, {workers, everyone}},
                                 config, changes);
}

TEST(SimgridPatches, ARepeatedHostListGetsTheSameRoutesFromTheCache)
{
  // Each task alone is limited by the FATPIPE backbone at 0.1 GB/s per flow: 1 GB takes
  // 10 s (all-to-all and single flow alike); so 10, 20, 30 s, cache on (default) or off.
  EXPECT_EQ(run_in_child([] { return check(repeated_exchanges(""), {10.0, 20.0, 30.0}); }), 0);
  EXPECT_EQ(run_in_child([] { return check(repeated_exchanges("host/ptask-route-cache:0"), {10.0, 20.0, 30.0}); }), 0);
}

TEST(SimgridPatches, ALinkLatencyChangeEmptiesTheCache)
{
  // Latency 0 for the first two tasks; l1 gets 1 ms before the third: the routes through
  // l1 now pay 1 ms, a ptask first pays its largest route latency, so the third ends at
  // 20 + 0.001 + 10 s (the TCP-window bound, gamma / (2 x 0.001 x 1 GB) = 2.1 tasks/s, is
  // above the backbone's 0.1 task/s), as when the cache is off. A cache that kept the old
  // latencies would give 30 s.
  const std::vector<LatencyChange> change = {{2, "l1", 1e-3, ""}};
  EXPECT_EQ(run_in_child([&change] { return check(repeated_exchanges("", change), {10.0, 20.0, 30.001}); }), 0);
  EXPECT_EQ(run_in_child([&change] {
              return check(repeated_exchanges("host/ptask-route-cache:0", change), {10.0, 20.0, 30.001});
            }),
            0);
}

TEST(SimgridPatches, AHostDestroyedBetweenExchangesChangesNothing)
{
  // Destroying a host (here an unrelated one) empties the cache, so that a cached route
  // never names a destroyed resource; the third task routes again and still takes its
  // 10 s. (What this checks is that emptying and routing again is safe and gives the same
  // dates; the emptying itself is not observable from outside.)
  const std::vector<LatencyChange> change = {{2, "", 0, "spare"}};
  EXPECT_EQ(run_in_child([&change] { return check(repeated_exchanges("", change), {10.0, 20.0, 30.0}); }), 0);
}

// Patch 0005 (selective update linear in a variable's constraints). The traversal decides
// which activities a lazy model updates after an event: an activity reached only through a
// constraint it missed keeps a stale rate. ptask_L07 updates every action after every solve,
// so this is checked on the network model (CM02 without its corrections, lazy update), whose
// comms crossing many links are variables with many constraints.

/// Comms started at 0 on `routes` (one host pair each, the route's links in order), their
/// completion dates; every link 1 GB/s, no latency, plain max-min sharing (CM02, no cross
/// traffic, no weight-S).
std::vector<double> comm_dates(const std::vector<std::string>& links, const std::vector<Route>& routes,
                               const std::vector<double>& bytes)
{
  int argc            = 6;
  char name[]         = "test";
  char model[]        = "--cfg=network/model:CM02";
  char cross[]        = "--cfg=network/crosstraffic:0";
  char weight[]       = "--cfg=network/weight-S:0";
  char optim[]        = "--cfg=network/optim:Lazy";
  char quiet[]        = "--log=root.thres:critical";
  char* argv[]        = {name, model, cross, weight, optim, quiet, nullptr};
  static auto* engine = new sg4::Engine(&argc, argv);
  (void)engine;
  auto* zone = sg4::create_full_zone("world");
  for (const auto& r : routes) {
    for (const auto& h : {r.src, r.dst})
      if (sg4::Host::by_name_or_null(h) == nullptr)
        zone->create_host(h, 1e9);
  }
  for (const auto& l : links)
    zone->create_link(l, 1 * GB)->set_latency(0)->seal();
  for (const auto& r : routes) {
    std::vector<sg4::LinkInRoute> in_route;
    for (const auto& l : r.links)
      in_route.emplace_back(sg4::Link::by_name(l));
    zone->add_route(sg4::Host::by_name(r.src)->get_netpoint(), sg4::Host::by_name(r.dst)->get_netpoint(), nullptr,
                    nullptr, in_route, false);
  }
  zone->seal();
  std::vector<double> dates(routes.size(), -1);
  sg4::Actor::create("starter", sg4::Host::by_name(routes.front().src), [&routes, &bytes, &dates]() {
    std::vector<sg4::CommPtr> running;
    for (size_t i = 0; i < routes.size(); ++i)
      running.push_back(
          sg4::Comm::sendto_async(sg4::Host::by_name(routes[i].src), sg4::Host::by_name(routes[i].dst), bytes[i]));
    dates = completion_dates_of(running);
  });
  sg4::Engine::get_instance()->run();
  return dates;
}

TEST(SimgridPatches, AnEventReachesEveryActivityBehindAManyLinkComm)
{
  // P: 14 GB over l0..l7; Q1 (1 GB) and Q2 (10 GB) over l7 only; R (4 GB) over l6 only.
  // Max-min: l7 gives P, Q1, Q2 1/3 GB/s each; R takes the rest of l6, 2/3 GB/s. Q1 ends at
  // 3 s (P and Q2 have moved 1 GB, R 2 GB). Then l7 and l6 give 1/2 GB/s to each of their
  // comms: R ends at 3 + 2 / 0.5 = 7 s; Q2 at 7 + (10 - 3) / 0.5 = 21 s; P has 14 - 3 - 7 = 4
  // GB left, alone: 25 s. R is reached from Q1's end only through l7 -> P -> l6, the sixth
  // constraint of P: a traversal that missed it would leave R at 2/3 GB/s (R at 6 s).
  EXPECT_EQ(run_in_child([] {
              const std::vector<std::string> links = {"l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7"};
              const std::vector<Route> routes      = {
                       {"a", "b", links}, {"c", "d", {"l7"}}, {"e", "f", {"l7"}}, {"g", "h", {"l6"}}};
              return check(comm_dates(links, routes, {14 * GB, 1 * GB, 10 * GB, 4 * GB}), {25.0, 3.0, 21.0, 7.0});
            }),
            0);
}

TEST(SimgridPatches, UnderFairBottleneckEveryPtaskIsSolvedAfterAnEvent)
{
  // Patch 0008: ptask_L07 under fair-bottleneck keeps no selective update (its solver and its
  // full action update never read it), so each solve must still reach every task. The comms
  // above as ptasks (fair-bottleneck gives the same shares here: l7 saturates first at 1/3
  // GB/s each, then R takes l6's remaining 2/3), plus S (3 GB) alone on l8, unrelated to
  // them: P 25 s, Q1 3 s, Q2 21 s, R 7 s (R is reached from Q1's end only through P), S 3 s.
  EXPECT_EQ(run_in_child([] {
              const std::vector<std::string> hosts = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
              std::vector<Link> links;
              for (const char* l : {"l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8"})
                links.push_back({l});
              const std::vector<Route> routes = {{"a", "b", {"l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7"}},
                                                 {"c", "d", {"l7"}},
                                                 {"e", "f", {"l7"}},
                                                 {"g", "h", {"l6"}},
                                                 {"i", "j", {"l8"}}};
              auto one_flow                   = [](const std::string& src, const std::string& dst, double bytes) {
                return Task{{src, dst}, {0, bytes, 0, 0}};
              };
              return check(completion_dates(hosts, links, routes,
                                            {one_flow("a", "b", 14 * GB), one_flow("c", "d", 1 * GB),
                                             one_flow("e", "f", 10 * GB), one_flow("g", "h", 4 * GB),
                                             one_flow("i", "j", 3 * GB)}),
                           {25.0, 3.0, 21.0, 7.0, 3.0});
            }),
            0);
}

TEST(SimgridPatches, TheRouteCacheSizeIsValidated)
{
  // A bound outside 0..8192 MiB is refused when set (xbt_assert: the child aborts).
  EXPECT_NE(run_in_child([] {
              int argc     = 2;
              char name[]  = "test";
              char quiet[] = "--log=root.thres:critical";
              char* argv[] = {name, quiet, nullptr};
              sg4::Engine engine(&argc, argv);
              sg4::Engine::set_config("host/ptask-route-cache:-1");
              return 0;
            }),
            0);
}

// Patch 0006 (amounts handed to the kernel without copies). The rvalue overloads take the
// vectors over (the caller's are left empty) and the const-reference ones leave them intact;
// either way the activity gets the same amounts: two identical tasks of 1 GB a -> b and
// 2 GB a -> c, each pair over its own 1 GB/s link, share both links equally, so both end
// when 2 GB has crossed link ac at 0.5 GB/s: 4 s.
TEST(SimgridPatches, AmountsTakenOverOrCopiedGiveTheSameActivity)
{
  EXPECT_EQ(run_in_child([] {
              build_platform({"a", "b", "c"}, {{"ab"}, {"ac"}}, {{"a", "b", {"ab"}}, {"a", "c", {"ac"}}});
              int failed = 0;
              sg4::Actor::create("starter", sg4::Host::by_name("a"), [&failed]() {
                const std::vector<sg4::Host*> where = {sg4::Host::by_name("a"), sg4::Host::by_name("b"),
                                                       sg4::Host::by_name("c")};
                const std::vector<double> bytes     = {0, 1 * GB, 2 * GB, 0, 0, 0, 0, 0, 0};
                std::vector<double> flops(3, 0.0);
                std::vector<double> moved = bytes;
                auto taken                = sg4::Exec::init();
                taken->set_flops_amounts(std::move(flops))->set_bytes_amounts(std::move(moved))->set_hosts(where);
                if (!moved.empty() || !flops.empty()) // NOLINT(bugprone-use-after-move): what the overload did
                  failed = 1;
                taken->start();
                const std::vector<double> zero(3, 0.0);
                auto copied = sg4::Exec::init();
                copied->set_flops_amounts(zero)->set_bytes_amounts(bytes)->set_hosts(where);
                if (bytes.size() != 9 || bytes[2] != 2 * GB)
                  failed = 2;
                copied->start();
                taken->wait();
                const double first = sg4::Engine::get_clock();
                copied->wait();
                if (failed == 0 && (std::fabs(first - 4) > 1e-9 || std::fabs(sg4::Engine::get_clock() - 4) > 1e-9))
                  failed = 3;
              });
              sg4::Engine::get_instance()->run();
              return failed;
            }),
            0);
}

// Patch 0009 (a user bound on a sequential execution under ptask_L07): the bound becomes the
// action's rate, bound / flops. Host a runs at 1 Gflop/s (one core). A capped execution of
// 10 Gflop at 0.25 Gflop/s beside an uncapped one of 3 Gflop: fair-bottleneck fills the capped
// one first (0.25 Gflop/s), the other gets 0.75 Gflop/s and ends at 3 / 0.75 = 4 s; then the
// capped one stays at its bound, 0.25 Gflop/s, alone: it has done 1 Gflop at 4 s and ends at
// 4 + 9 / 0.25 = 40 s. A cap above the fair share binds nothing: 2 Gflop capped at 0.8 Gflop/s
// beside 2 Gflop uncapped, 0.5 Gflop/s each, both end at 4 s. (3.32 aborted on the assertion.)
TEST(SimgridPatches, AUserBoundCapsASequentialExecution)
{
  EXPECT_EQ(run_in_child([] {
              build_platform({"a"}, {}, {});
              int failed = 0;
              auto pair  = [](double capped_flops, double bound, double free_flops) {
                auto* a     = sg4::Host::by_name("a");
                auto capped = sg4::this_actor::exec_init(capped_flops);
                capped->set_host(a)->set_bound(bound);
                auto free = sg4::this_actor::exec_init(free_flops);
                free->set_host(a);
                const double start = sg4::Engine::get_clock();
                capped->start();
                free->start();
                free->wait();
                const double free_end = sg4::Engine::get_clock() - start;
                capped->wait();
                return std::make_pair(free_end, sg4::Engine::get_clock() - start);
              };
              sg4::Actor::create("starter", sg4::Host::by_name("a"), [&failed, &pair]() {
                const auto [free_end, capped_end] = pair(10e9, 0.25e9, 3e9);
                if (std::fabs(free_end - 4) > 1e-6 || std::fabs(capped_end - 40) > 1e-6)
                  failed = 1;
                const auto [free_end2, capped_end2] = pair(2e9, 0.8e9, 2e9);
                if (failed == 0 && (std::fabs(free_end2 - 4) > 1e-6 || std::fabs(capped_end2 - 4) > 1e-6))
                  failed = 2;
              });
              sg4::Engine::get_instance()->run();
              return failed;
            }),
            0);
}

// Patch 0007 (sparse bytes): Exec::set_sparse_bytes_amounts gives the pairs that
// communicate as row-major indices with their amounts. On ptask_L07 the task is the one the
// dense matrix gives: the two tasks of the 0006 case above, one sparse and one dense, share
// both links equally and both end at 2 GB / 0.5 GB/s = 4 s; and the TCP-gamma bound, which
// the constructor computes from the pairs, holds as in the dense case above:
// t = 0.1 + 0.1e9 x 0.2 / 4194304 s.
sg4::ExecPtr start_sparse(const std::vector<std::string>& hosts, std::vector<size_t> pairs, std::vector<double> amounts)
{
  std::vector<sg4::Host*> where;
  for (const auto& h : hosts)
    where.push_back(sg4::Host::by_name(h));
  auto exec = sg4::Exec::init();
  exec->set_flops_amounts(std::vector<double>(where.size(), 0.0))
      ->set_sparse_bytes_amounts(std::move(pairs), std::move(amounts))
      ->set_hosts(where);
  exec->start();
  return exec;
}

TEST(SimgridPatches, SparseBytesGiveTheTaskOfTheDenseMatrix)
{
  EXPECT_EQ(run_in_child([] {
              build_platform({"a", "b", "c"}, {{"ab"}, {"ac"}}, {{"a", "b", {"ab"}}, {"a", "c", {"ac"}}});
              std::vector<double> dates;
              sg4::Actor::create("starter", sg4::Host::by_name("a"), [&dates]() {
                std::vector<sg4::ExecPtr> running;
                running.push_back(start_sparse({"a", "b", "c"}, {1, 2}, {1 * GB, 2 * GB}));
                running.push_back(start_task({{"a", "b", "c"}, {0, 1 * GB, 2 * GB, 0, 0, 0, 0, 0, 0}}));
                dates = completion_dates_of(running);
              });
              sg4::Engine::get_instance()->run();
              return check(dates, {4.0, 4.0});
            }),
            0);
  const double expected = 0.1 + 0.1 * GB * 0.2 / 4194304;
  EXPECT_EQ(run_in_child([expected] {
              build_platform({"a", "b"}, {{"slow", 1 * GB, 0.1}}, {{"a", "b", {"slow"}}});
              std::vector<double> dates;
              sg4::Actor::create("starter", sg4::Host::by_name("a"), [&dates]() {
                dates = completion_dates_of(std::vector<sg4::ExecPtr>{start_sparse({"a", "b"}, {1}, {0.1 * GB})});
              });
              sg4::Engine::get_instance()->run();
              return check(dates, {expected});
            }),
            0);
}

// A host model that reads only dense matrices (the default one: LV08 network, bandwidth
// factor 0.97) gets the sparse amounts expanded: one 1 GB flow over a 1 GB/s link of no
// latency takes 1 / 0.97 s, given densely or sparsely.
std::vector<double> one_flow_on_the_default_model(bool sparse)
{
  build_platform({"a", "b"}, {{"ab"}}, {{"a", "b", {"ab"}}}, "host/model:default");
  std::vector<double> dates;
  sg4::Actor::create("starter", sg4::Host::by_name("a"), [&dates, sparse]() {
    auto exec = sparse ? start_sparse({"a", "b"}, {1}, {1 * GB}) : start_task({{"a", "b"}, {0, 1 * GB, 0, 0}});
    dates     = completion_dates_of(std::vector<sg4::ExecPtr>{exec});
  });
  sg4::Engine::get_instance()->run();
  return dates;
}

TEST(SimgridPatches, AModelWithoutSparseReadingGetsTheDenseMatrix)
{
  EXPECT_EQ(run_in_child([] { return check(one_flow_on_the_default_model(false), {1 / 0.97}); }), 0);
  EXPECT_EQ(run_in_child([] { return check(one_flow_on_the_default_model(true), {1 / 0.97}); }), 0);
}

TEST(SimgridPatches, SparsePairIndicesMustIncrease)
{
  EXPECT_NE(run_in_child([] {
              build_platform({"a", "b"}, {{"ab"}}, {{"a", "b", {"ab"}}, {"b", "a", {"ab"}}});
              sg4::Actor::create("starter", sg4::Host::by_name("a"), []() {
                start_sparse({"a", "b"}, {2, 1}, {1 * GB, 1 * GB})->wait();
              });
              sg4::Engine::get_instance()->run();
              return 0;
            }),
            0);
}

} // namespace
} // namespace datasched::testing
