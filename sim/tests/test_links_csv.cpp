// <prefix>_links.csv (export/links_csv.hpp): the bytes and busy time of each link, integrated
// from SimGrid's link usage at every time advance, against closed forms on platforms built in
// code (ptask_L07, as the engine runs it). Each case runs in a forked child (one SimGrid engine
// per process). S = bytes of a flow, B = link bandwidth, L = link latency.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "export/links_csv.hpp"
#include "support/scripted_engine.hpp"

namespace datasched::testing {
namespace {

namespace sg4 = simgrid::s4u;

constexpr double GB = 1e9;

/// A one-flow ptask `src` -> `dst` of `bytes`.
struct Flow {
  std::string src;
  std::string dst;
  double bytes;
};

/// Hosts a, b, c, d; links l1, l2 of bandwidth `bandwidth` and latency `latency`; routes
/// a->b and c->d over l1, a->d over l1 then l2. Starts every flow at 0, runs, and returns the
/// measured loads (windows of `window` s), also writing them to `csv` when not empty.
std::map<std::string, LinkLoadCsv::Load> measure(const std::vector<Flow>& flows, double window, double latency = 0,
                                                 const std::string& csv = "", double bandwidth = 1 * GB)
{
  int argc                  = 3;
  char name[]               = "test";
  char model[]              = "--cfg=host/model:ptask_L07";
  char quiet[]              = "--log=root.thres:critical";
  char* argv[]              = {name, model, quiet, nullptr};
  static const auto* engine = new sg4::Engine(&argc, argv);
  (void)engine;
  auto* zone = sg4::create_full_zone("world");
  for (const char* h : {"a", "b", "c", "d"})
    zone->create_host(h, 1e9);
  for (const char* l : {"l1", "l2"})
    zone->create_link(l, bandwidth)->set_latency(latency)->seal();
  auto route = [zone](const char* src, const char* dst, std::vector<const char*> links) {
    std::vector<sg4::LinkInRoute> in_route;
    for (const char* l : links)
      in_route.emplace_back(sg4::Link::by_name(l));
    zone->add_route(sg4::Host::by_name(src)->get_netpoint(), sg4::Host::by_name(dst)->get_netpoint(), nullptr, nullptr,
                    in_route, false);
  };
  route("a", "b", {"l1"});
  route("c", "d", {"l1"});
  route("a", "d", {"l1", "l2"});
  zone->seal();
  LinkLoadCsv loads;
  loads.start(window);
  sg4::Actor::create("starter", sg4::Host::by_name("a"), [&flows]() {
    std::vector<sg4::ExecPtr> running;
    for (const Flow& f : flows) {
      std::vector<sg4::Host*> where = {sg4::Host::by_name(f.src), sg4::Host::by_name(f.dst)};
      running.push_back(sg4::this_actor::exec_init(where, {0, 0}, {0, f.bytes, 0, 0})->start());
    }
    for (auto& exec : running)
      exec->wait();
  });
  sg4::Engine::get_instance()->run();
  if (!csv.empty())
    loads.write(csv);
  return loads.totals();
}

/// 0 if `link` carried `bytes` (relative 1e-9) and was busy `busy` s (1e-9 s); else prints.
int expect(const std::map<std::string, LinkLoadCsv::Load>& got, const std::string& link, double bytes, double busy)
{
  auto found                   = got.find(link);
  const LinkLoadCsv::Load load = found == got.end() ? LinkLoadCsv::Load{} : found->second;
  if (std::fabs(load.bytes - bytes) <= 1e-9 * std::max(1.0, bytes) && std::fabs(load.busy - busy) <= 1e-9)
    return 0;
  std::fprintf(stderr, "%s: got %.9g bytes, busy %.9g s; expected %.9g, %.9g\n", link.c_str(), load.bytes, load.busy,
               bytes, busy);
  return 1;
}

TEST(LinksCsv, OneFlowOnOneLinkCarriesItsBytesForSOverB)
{
  // bytes(l1) = S = 1 GB; busy = S / B = 1 s; l2 carries nothing.
  EXPECT_EQ(run_in_child([] {
              auto got = measure({{"a", "b", 1 * GB}}, 10);
              return expect(got, "l1", 1 * GB, 1.0) + (got.count("l2") ? 1 : 0);
            }),
            0);
}

TEST(LinksCsv, TwoFlowsSharingALinkEachGetHalfAndTheLinkCarriesBoth)
{
  // Each flow gets B/2, both end at 2S/B = 2 s: the link carries 2S = 2 GB, busy 2S/B = 2 s.
  EXPECT_EQ(run_in_child([] {
              return expect(measure({{"a", "b", 1 * GB}, {"c", "d", 1 * GB}}, 10), "l1", 2 * GB, 2.0);
            }),
            0);
}

TEST(LinksCsv, AFlowCrossingTwoLinksLoadsBothWithS)
{
  // a -> d crosses l1 and l2 in series: each carries S = 1 GB, busy S/B = 1 s.
  EXPECT_EQ(run_in_child([] {
              auto got = measure({{"a", "d", 1 * GB}}, 10);
              return expect(got, "l1", 1 * GB, 1.0) + expect(got, "l2", 1 * GB, 1.0);
            }),
            0);
}

TEST(LinksCsv, UnequalFlowsChangeRatesMidRun)
{
  // 1 GB and 3 GB share l1: B/2 each until 2 s (1 GB each), then the 3 GB flow alone at B
  // for 2 GB: ends at 4 s. The link carries 4 GB and is busy 4 s.
  EXPECT_EQ(run_in_child([] {
              return expect(measure({{"a", "b", 1 * GB}, {"c", "d", 3 * GB}}, 10), "l1", 4 * GB, 4.0);
            }),
            0);
}

TEST(LinksCsv, TheLatencyMovesNoBytes)
{
  // T = L + S/B = 0.001 + 1 s: the link is busy S/B = 1 s, not T, and carries S. (L = 1 ms
  // keeps ptask_L07's TCP-gamma bound, gamma / 2L = 4194304 / 0.002 = 2.1 GB/s, above B.)
  EXPECT_EQ(run_in_child([] { return expect(measure({{"a", "b", 1 * GB}}, 10, 0.001), "l1", 1 * GB, 1.0); }), 0);
}

TEST(LinksCsv, ATcpGammaBoundedFlowIsMeasuredAtItsBoundedRate)
{
  // L = 0.5 s: ptask_L07 bounds the flow to gamma / 2L = 4194304 B/s (< B), so the link is
  // busy S / (gamma / 2L) = 1e9 / 4194304 = 238.418579 s and still carries S.
  EXPECT_EQ(run_in_child([] {
              return expect(measure({{"a", "b", 1 * GB}}, 1000, 0.5), "l1", 1 * GB, 1 * GB / 4194304.0);
            }),
            0);
}

TEST(LinksCsv, WindowsSplitASteadyFlowInProportion)
{
  // S = 2.5 GB at B = 1 GB/s in windows of 1 s: rows of 1, 1 and 0.5 GB, utilisation
  // bytes / (B x window) = 1, 1, 0.5.
  EXPECT_EQ(run_in_child([] {
              const std::string path = "links_csv_test.csv";
              measure({{"a", "b", 2.5 * GB}}, 1, 0, path);
              std::ifstream in(path);
              std::stringstream text;
              text << in.rdbuf();
              std::remove(path.c_str());
              const std::string want = LinkLoadCsv::header() +
                                       "0.000000,1.000000,l1,1000000000.000000,1.000000,1.000000\n"
                                       "1.000000,2.000000,l1,1000000000.000000,1.000000,1.000000\n"
                                       "2.000000,3.000000,l1,500000000.000000,0.500000,0.500000\n";
              if (text.str() == want)
                return 0;
              std::fprintf(stderr, "got:\n%s", text.str().c_str());
              return 1;
            }),
            0);
}

} // namespace
} // namespace datasched::testing
