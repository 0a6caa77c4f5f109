// Request generation per access pattern and striping over data servers (seed 002).
#include <gtest/gtest.h>

#include "forwarding/layout.hpp"
#include "services/forwarding_requests.hpp"
#include "services/forwarding_statistics.hpp"

using namespace datasched::forwarding;

namespace {
Application app(AccessPattern pattern, int processes)
{
  Application a;
  a.name              = "a";
  a.processes         = processes;
  a.pattern           = pattern;
  a.request_size      = 100;
  a.bytes_per_process = 300;
  return a;
}
} // namespace

TEST(ForwardingRequests, FilePerProcessIsSequentialInOwnFile)
{
  // request i of rank r: file first+r, offset i*R
  auto reqs = process_requests(app(AccessPattern::FilePerProcess, 4), 2, 10);
  ASSERT_EQ(reqs.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(reqs[i].file, 12);
    EXPECT_EQ(reqs[i].offset, i * 100);
    EXPECT_EQ(reqs[i].size, 100u);
  }
  EXPECT_EQ(files_of(app(AccessPattern::FilePerProcess, 4)), 4);
}

TEST(ForwardingRequests, SharedContiguousGivesEachRankItsBlock)
{
  // request i of rank r: offset r*B + i*R, B = 300
  auto reqs = process_requests(app(AccessPattern::SharedContiguous, 4), 2, 7);
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].file, 7);
  EXPECT_EQ(reqs[0].offset, 600u);
  EXPECT_EQ(reqs[2].offset, 800u);
  EXPECT_EQ(files_of(app(AccessPattern::SharedContiguous, 4)), 1);
}

TEST(ForwardingRequests, SharedStridedInterleavesRanks)
{
  // request i of rank r: offset (i*P + r)*R, P = 4: rank 1 -> 100, 500, 900
  auto reqs = process_requests(app(AccessPattern::SharedStrided, 4), 1, 0);
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].offset, 100u);
  EXPECT_EQ(reqs[1].offset, 500u);
  EXPECT_EQ(reqs[2].offset, 900u);
}

TEST(ForwardingRequests, StripingIsRoundRobinFromTheFilesServer)
{
  // stripe k of file f on server (f + k) mod S
  Striping s{64, 4};
  EXPECT_EQ(s.server_of(0, 0), 0);
  EXPECT_EQ(s.server_of(0, 63), 0);
  EXPECT_EQ(s.server_of(0, 64), 1);
  EXPECT_EQ(s.server_of(1, 0), 1);
  EXPECT_EQ(s.server_of(3, 64), 0);
}

TEST(ForwardingRequests, SplitCutsAtStripesAndMergesPerServer)
{
  Striping s{64, 2};
  // [32, 32+200) of file 0: 32 B on server 0, 64 on 1, 64 on 0, 40 on 1 -> 96 on 0, 104 on 1
  auto shares = s.split({0, 32, 200});
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_EQ(shares[0].server, 0);
  EXPECT_EQ(shares[0].bytes, 96u);
  EXPECT_EQ(shares[1].server, 1);
  EXPECT_EQ(shares[1].bytes, 104u);
  // inside one stripe: one share
  auto one = s.split({1, 64, 64});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].server, 0);
}

TEST(ForwardingLayout, MappingsOfClientNodes)
{
  ForwardingLayer layer;
  layer.forwarders = 4;
  layer.mapping    = ClientMapping::Block; // c * F / C
  EXPECT_EQ(forwarder_of(layer, 0, 32), 0);
  EXPECT_EQ(forwarder_of(layer, 7, 32), 0);
  EXPECT_EQ(forwarder_of(layer, 8, 32), 1);
  EXPECT_EQ(forwarder_of(layer, 31, 32), 3);
  layer.mapping = ClientMapping::RoundRobin; // c mod F
  EXPECT_EQ(forwarder_of(layer, 5, 32), 1);
  layer.mapping          = ClientMapping::Explicit;
  layer.explicit_mapping = {3, 2};
  EXPECT_EQ(forwarder_of(layer, 1, 2), 2);
}

TEST(Striping, ObjectOffsetsOfShares)
{
  // 3 servers, stripes of 10: file byte 35 is in stripe 3 = the second stripe (3 div 3 = 1)
  // of its server's object, at 5 into it: object offset 15.
  Striping s;
  s.stripe_size = 10;
  s.servers     = 3;
  EXPECT_EQ(s.object_offset_of(35), 15u);
  EXPECT_EQ(s.object_offset_of(7), 7u);
  // Range [25, 45) of file 0: stripe 2 (server 2, object 5..10), stripe 3 (server 0, object
  // 10..15), stripe 4 (server 1, object 10..15): each share starts where its first piece does.
  auto shares = s.split({0, 25, 20});
  ASSERT_EQ(shares.size(), 3u);
  EXPECT_EQ(shares[0].server, 2);
  EXPECT_EQ(shares[0].object_offset, 5u);
  EXPECT_EQ(shares[1].server, 0);
  EXPECT_EQ(shares[1].object_offset, 10u);
  EXPECT_EQ(shares[2].server, 1);
  EXPECT_EQ(shares[2].object_offset, 10u);
}

// A batch of sends is recorded in share order once all have ended: the span is the earliest
// and the latest arrival whatever the order they are added in (pace = (3 - 1) / (3 - 1) = 1 s).
TEST(ArrivalSpan, KeepsTheEarliestAndLatestWhateverTheOrder)
{
  ArrivalSpan span;
  for (double t : {2.0, 3.0, 1.0})
    span.add(t);
  EXPECT_EQ(span.count, 3u);
  EXPECT_DOUBLE_EQ(span.first, 1.0);
  EXPECT_DOUBLE_EQ(span.last, 3.0);
}
