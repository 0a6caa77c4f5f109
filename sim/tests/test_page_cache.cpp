// The node page cache's bookkeeping (model/page_cache.hpp) on hand-made numbers: what a
// write absorbs (dirty limit), what a read hits, LRU eviction of clean pages only, and
// the errors that name the host and property. The times these numbers turn into are
// tested end to end in tests/integration/storage/test_page_cache.py.
#include <gtest/gtest.h>

#include "common/fatal.hpp"
#include "model/page_cache.hpp"

using namespace datasched;

TEST(PageCache, WriteBelowTheDirtyLimitIsAbsorbedWhole)
{
  // d = min(S, capacity x ratio - dirty) = min(30, 100 x 0.5 - 0) = 30; through = S - d = 0.
  PageCache c;
  c.configure(0, 100, 0.5, "test");
  const CachedWrite w = c.write(0, "a", 30, 0);
  EXPECT_DOUBLE_EQ(w.dirty, 30);
  EXPECT_DOUBLE_EQ(w.through, 0);
  EXPECT_DOUBLE_EQ(c.node(0)->dirty, 30);
}

TEST(PageCache, WriteBeyondTheDirtyLimitWritesTheRestThrough)
{
  // d = min(80, 50 - 0) = 50; through = 80 - 50 = 30, cached clean as room allows (100 - 50 >= 30).
  PageCache c;
  c.configure(0, 100, 0.5, "test");
  const CachedWrite w = c.write(0, "a", 80, 0);
  EXPECT_DOUBLE_EQ(w.dirty, 50);
  EXPECT_DOUBLE_EQ(w.through, 30);
  EXPECT_DOUBLE_EQ(c.node(0)->used, 80);
  // A second writer finds the dirty limit reached: everything through.
  const CachedWrite second = c.write(0, "b", 10, 1);
  EXPECT_DOUBLE_EQ(second.dirty, 0);
  EXPECT_DOUBLE_EQ(second.through, 10);
  // After the flush, the limit has room again.
  c.flushed(0, "a", 50);
  EXPECT_DOUBLE_EQ(c.node(0)->dirty, 0);
  EXPECT_DOUBLE_EQ(c.write(0, "c", 10, 2).dirty, 10);
}

TEST(PageCache, WriteThroughWithRatioZeroStillCachesClean)
{
  PageCache c;
  c.configure(0, 100, 0, "test");
  const CachedWrite w = c.write(0, "a", 40, 0);
  EXPECT_DOUBLE_EQ(w.dirty, 0);
  EXPECT_DOUBLE_EQ(w.through, 40);
  EXPECT_DOUBLE_EQ(c.hit(0, "a", 40, 1), 40); // a read after the write hits all of it
}

TEST(PageCache, CleanPagesAreEvictedLeastRecentlyUsedFirst)
{
  // Capacity 100, write-through: a (40) at t=0, b (40) at t=1, a read at t=2 (a is now newer),
  // c (40) at t=3 needs 20 more bytes: taken from b, the least recently used.
  PageCache c;
  c.configure(0, 100, 0, "test");
  c.write(0, "a", 40, 0);
  c.write(0, "b", 40, 1);
  EXPECT_DOUBLE_EQ(c.hit(0, "a", 40, 2), 40);
  c.write(0, "c", 40, 3);
  EXPECT_DOUBLE_EQ(c.hit(0, "a", 40, 4), 40);
  EXPECT_DOUBLE_EQ(c.hit(0, "b", 40, 4), 20);
  EXPECT_DOUBLE_EQ(c.hit(0, "c", 40, 4), 40);
}

TEST(PageCache, DirtyPagesAreNeverEvicted)
{
  // a: 50 dirty (limit 50). b: 80 through; only 100 - 50 = 50 of it fits as clean pages.
  PageCache c;
  c.configure(0, 100, 0.5, "test");
  c.write(0, "a", 50, 0);
  const CachedWrite w = c.write(0, "b", 80, 1);
  EXPECT_DOUBLE_EQ(w.through, 80);
  EXPECT_DOUBLE_EQ(c.hit(0, "a", 50, 2), 50);
  EXPECT_DOUBLE_EQ(c.hit(0, "b", 80, 2), 50);
}

TEST(PageCache, ReadMissFillsAndRewriteInvalidates)
{
  PageCache c;
  c.configure(0, 100, 0.2, "test");
  EXPECT_DOUBLE_EQ(c.hit(0, "x", 30, 0), 0); // never seen: a miss
  c.fill(0, "x", 30, 0);
  EXPECT_DOUBLE_EQ(c.hit(0, "x", 30, 1), 30);
  c.invalidate("x");
  EXPECT_DOUBLE_EQ(c.hit(0, "x", 30, 2), 0);
  EXPECT_DOUBLE_EQ(c.node(0)->used, 0);
}

TEST(PageCache, NodeWithoutCacheWritesEverythingThrough)
{
  PageCache c;
  const CachedWrite w = c.write(3, "a", 10, 0);
  EXPECT_DOUBLE_EQ(w.through, 10);
  EXPECT_DOUBLE_EQ(c.hit(3, "a", 10, 0), 0);
}

TEST(PageCache, BadParametersNameTheirPlace)
{
  PageCache c;
  EXPECT_THROW(c.configure(0, -1, 0.2, "host 'n-dram'"), InputError);
  EXPECT_THROW(c.configure(0, 100, 1.5, "host 'n-dram'"), InputError);
  EXPECT_THROW(c.configure(0, 100, -0.1, "host 'n-dram'"), InputError);
  try {
    c.configure(0, 100, 2, "host 'n-dram'");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("host 'n-dram' has page_cache_dirty_ratio"), std::string::npos);
  }
}
