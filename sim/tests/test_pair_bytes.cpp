// PairBytes: a parallel task's bytes as the pairs that communicate, in row-major order.
// Its contract is that of the dense matrix it replaces: the same amounts (sums of repeats
// bit for bit, in the order given), met in the same order.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "common/pair_bytes.hpp"

namespace datasched::testing {
namespace {

std::vector<double> dense_of(const std::vector<PairBytes::Pair>& flows, size_t n)
{
  std::vector<double> m(n * n, 0.0);
  for (const auto& f : flows)
    if (f.bytes > 0)
      m[f.src * n + f.dst] += f.bytes;
  return m;
}

TEST(PairBytes, FlowsAreSortedRowMajorRepeatsSummedAndNothingDropped)
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto b     = PairBytes::from_flows({{1, 0, 2}, {0, 1, 3}, {0, 1, 4}, {0, 0, -1}, {2, 1, nan}, {0, 2, 0}});
  ASSERT_EQ(b.size(), 2u);
  auto it = b.begin();
  EXPECT_EQ(it->src, 0u);
  EXPECT_EQ(it->dst, 1u);
  EXPECT_EQ(it->bytes, 7);
  ++it;
  EXPECT_EQ(it->src, 1u);
  EXPECT_EQ(it->dst, 0u);
  EXPECT_EQ(it->bytes, 2);
  EXPECT_EQ(b.at(0, 1), 7);
  EXPECT_EQ(b.at(1, 0), 2);
  EXPECT_EQ(b.at(2, 1), 0);
  EXPECT_EQ(b.at(5, 5), 0);
}

TEST(PairBytes, SumsEqualTheDenseMatrixBitForBit)
{
  // Floating-point sums depend on their order: 0.1 + 0.2 + 0.3 != 0.3 + 0.2 + 0.1. Random
  // flows with many repeats give the very dense matrix that += in the given order gives.
  std::mt19937 rng(12345);
  for (int round = 0; round < 50; ++round) {
    const size_t n = 1 + rng() % 7;
    std::vector<PairBytes::Pair> flows;
    const int count = round % 5 == 0 ? 300 : 40;
    for (int k = 0; k < count; ++k)
      flows.push_back({static_cast<std::uint32_t>(rng() % n), static_cast<std::uint32_t>(rng() % n),
                       std::ldexp(static_cast<double>(rng() % 1000) / 7.0, static_cast<int>(rng() % 20) - 10)});
    const auto b = PairBytes::from_flows(flows);
    EXPECT_EQ(b.dense(n), dense_of(flows, n)) << "round " << round;
    EXPECT_EQ(PairBytes::from_dense(b.dense(n), n).dense(n), b.dense(n));
  }
}

TEST(PairBytes, RotatedRowsAreOrdered)
{
  // A node's partners in a sampled all-to-all: sorted up to one wrap-around (rotated), with
  // a repeat inside a run; and a row that is not a rotation. Both come out row-major.
  const auto b = PairBytes::from_flows(
      {{0, 5, 1}, {0, 7, 1}, {0, 7, 2}, {0, 1, 1}, {0, 3, 1}, {1, 4, 1}, {1, 0, 1}, {1, 6, 1}, {1, 2, 1}});
  std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
  for (const auto& p : b)
    order.emplace_back(p.src, p.dst);
  EXPECT_EQ(order, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{
                       {0, 1}, {0, 3}, {0, 5}, {0, 7}, {1, 0}, {1, 2}, {1, 4}, {1, 6}}));
  EXPECT_EQ(b.at(0, 7), 3);
}

TEST(PairBytes, EveryPairCountsOnlyDistinctHosts)
{
  // 3 hosts: the 6 off-diagonal pairs; a diagonal entry neither counts nor is needed.
  std::vector<double> all(9, 1.0);
  EXPECT_TRUE(PairBytes::from_dense(all, 3).every_pair_of(3));
  all[0] = 0; // the diagonal does not matter
  EXPECT_TRUE(PairBytes::from_dense(all, 3).every_pair_of(3));
  all[5] = 0; // 1 -> 2 missing
  EXPECT_FALSE(PairBytes::from_dense(all, 3).every_pair_of(3));
  EXPECT_FALSE(PairBytes::from_dense({0, 0, 0, 0}, 2).every_pair_of(2));
  EXPECT_FALSE(PairBytes::from_dense({5}, 1).every_pair_of(1));
}

TEST(PairBytes, ReleasedAsIncreasingRowMajorIndices)
{
  auto b = PairBytes::from_flows({{2, 0, 1}, {0, 2, 2}, {1, 1, 3}});
  std::vector<size_t> indices;
  std::vector<double> amounts;
  b.release_to(3, indices, amounts);
  EXPECT_EQ(indices, (std::vector<size_t>{2, 4, 6})); // (0,2), (1,1), (2,0)
  EXPECT_EQ(amounts, (std::vector<double>{2, 3, 1}));
  EXPECT_TRUE(b.empty());
}

TEST(PairBytes, ScalingKeepsEveryPair)
{
  auto b = PairBytes::from_flows({{0, 1, 2}, {1, 0, 4}});
  b.scale(0.5);
  EXPECT_EQ(b.dense(2), (std::vector<double>{0, 1, 2, 0}));
}

} // namespace
} // namespace datasched::testing
