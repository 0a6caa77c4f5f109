// Orderings of the forwarder request schedulers FIFO, HBRR and TWINS (seed 002).
#include <gtest/gtest.h>

#include "services/forwarding_schedulers.hpp"

using namespace datasched::forwarding;

namespace {
QueuedRequest req(std::uint64_t id, int file, std::uint64_t offset, std::uint64_t size = 10,
                  Operation op = Operation::Read, int server = -1)
{
  QueuedRequest r;
  r.id     = id;
  r.file   = file;
  r.offset = offset;
  r.size   = size;
  r.op     = op;
  r.server = server;
  return r;
}
} // namespace

TEST(FifoScheduler, ServesInArrivalOrderWithoutAggregation)
{
  // Contiguous requests stay separate: FIFO never merges.
  FifoScheduler s;
  s.push(req(3, 0, 20));
  s.push(req(1, 0, 10));
  s.push(req(2, 1, 0));
  std::vector<std::uint64_t> order;
  while (auto d = s.pop(0.0)) {
    ASSERT_EQ(d->parts.size(), 1u);
    order.push_back(d->parts[0].id);
  }
  EXPECT_EQ(order, (std::vector<std::uint64_t>{3, 1, 2}));
  EXPECT_EQ(s.queued(), 0u);
}

TEST(HbrrScheduler, AggregatesTwoContiguousRequestsIntoOne)
{
  // [10, 20) and [0, 10) of file 5 -> one dispatch [0, 20), 20 bytes, two parts.
  HbrrScheduler s(16);
  s.push(req(1, 5, 10));
  s.push(req(2, 5, 0));
  auto d = s.pop(0.0);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->parts.size(), 2u);
  EXPECT_EQ(d->offset, 0u);
  EXPECT_EQ(d->size, 20u);
  EXPECT_FALSE(s.pop(0.0));
}

TEST(HbrrScheduler, DoesNotMergeAcrossFilesOperationsOrGaps)
{
  HbrrScheduler s(16);
  s.push(req(1, 5, 0));
  s.push(req(2, 6, 10));                       // other file
  s.push(req(3, 5, 10, 10, Operation::Write)); // other operation
  s.push(req(4, 5, 30));                       // gap
  auto d = s.pop(0.0);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->parts.size(), 1u);
  EXPECT_EQ(s.queued(), 3u);
}

TEST(HbrrScheduler, RespectsTheAggregationLimit)
{
  // Four contiguous requests, limit 3 -> 3 merged, then 1.
  HbrrScheduler s(3);
  for (std::uint64_t i = 0; i < 4; ++i)
    s.push(req(i, 0, i * 10));
  auto first = s.pop(0.0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->parts.size(), 3u);
  EXPECT_EQ(first->size, 30u);
  auto second = s.pop(0.0);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->parts.size(), 1u);
}

TEST(HbrrScheduler, RoundRobinOverFileHandles)
{
  // Files in order of first arrival A=1, B=2; non-contiguous requests: A, B, A, B.
  HbrrScheduler s(16);
  s.push(req(10, 1, 0));
  s.push(req(11, 1, 100));
  s.push(req(20, 2, 0));
  s.push(req(21, 2, 100));
  std::vector<std::uint64_t> order;
  while (auto d = s.pop(0.0))
    order.push_back(d->parts[0].id);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{10, 20, 11, 21}));
}

TEST(TwinsScheduler, ServesOnlyItsWindowsServerAndRotates)
{
  // Forwarder 1 of 4 servers, W = 1 ms: window k serves server (1 + k) mod 4.
  TwinsScheduler s(1, 4, 0.001);
  EXPECT_EQ(s.server_at(0.0), 1);
  EXPECT_EQ(s.server_at(0.0005), 1);
  EXPECT_EQ(s.server_at(0.001), 2);
  EXPECT_EQ(s.server_at(0.0035), 0);
  // Rounding at a window end: 3 * 0.001 is window 3, not window 2.
  EXPECT_EQ(s.window_index(3 * 0.001), 3);
  EXPECT_EQ(s.next_change(0.0005), std::numeric_limits<double>::infinity()); // nothing queued

  s.push(req(7, 0, 0, 10, Operation::Read, 3)); // for server 3
  s.push(req(8, 0, 0, 10, Operation::Read, 2)); // for server 2
  EXPECT_FALSE(s.pop(0.0));                     // window 0 serves server 1 only
  auto d = s.pop(0.0015);                       // window 1: server 2
  ASSERT_TRUE(d);
  EXPECT_EQ(d->parts[0].id, 8u);
  EXPECT_EQ(d->server, 2);
  EXPECT_FALSE(s.pop(0.0015));
  // Only server 3 has shares left: from window 1 (server 2) the next useful window is 2.
  EXPECT_DOUBLE_EQ(s.next_change(0.0015), 0.002);
  // From window 3 (server 0), server 3 comes back in window 6.
  EXPECT_DOUBLE_EQ(s.next_change(0.0031), 0.006);
  auto e = s.pop(0.0025); // window 2: server 3
  ASSERT_TRUE(e);
  EXPECT_EQ(e->parts[0].id, 7u);
}

TEST(TwinsScheduler, DistinctForwardersServeDistinctServers)
{
  // f < S: (f + k) mod S differ for distinct f at every window k.
  std::vector<TwinsScheduler> fwds;
  for (int f = 0; f < 4; ++f)
    fwds.emplace_back(f, 4, 0.008);
  for (double t = 0; t < 0.2; t += 0.0013) {
    std::vector<bool> used(4, false);
    for (auto& f : fwds) {
      int s = f.server_at(t);
      EXPECT_FALSE(used[static_cast<std::size_t>(s)]) << "t=" << t;
      used[static_cast<std::size_t>(s)] = true;
    }
  }
}

TEST(TwinsScheduler, DrainWaitsForThePreviousServersDispatches)
{
  // Forwarder 0 of 2 servers, W = 1: server 0 in [0, 1), server 1 in [1, 2).
  // Without drain, the server-1 share goes at t = 1.2 although the server-0 dispatch taken
  // at t = 0.5 is still in flight; with drain it goes only once that one has completed.
  for (bool drain : {false, true}) {
    TwinsScheduler s(0, 2, 1.0, drain);
    EXPECT_EQ(s.wants_completions(), drain);
    s.push(req(1, 0, 0, 10, Operation::Read, 0));
    s.push(req(2, 0, 10, 10, Operation::Read, 1));
    auto first = s.pop(0.5);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->server, 0);
    auto second = s.pop(1.2);
    EXPECT_EQ(second.has_value(), !drain);
    if (drain) {
      s.completed(*first);
      second = s.pop(1.2);
      ASSERT_TRUE(second.has_value());
    }
    EXPECT_EQ(second->server, 1);
  }
}

TEST(TwinsScheduler, DrainDoesNotHoldBackItsOwnServer)
{
  // Dispatches to the window's own server are never held back, in flight or not.
  TwinsScheduler s(0, 2, 1.0, true);
  s.push(req(1, 0, 0, 10, Operation::Read, 0));
  s.push(req(2, 0, 10, 10, Operation::Read, 0));
  ASSERT_TRUE(s.pop(0.1).has_value());
  ASSERT_TRUE(s.pop(0.2).has_value());
}
