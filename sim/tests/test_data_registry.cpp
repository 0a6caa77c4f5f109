// The data registry on a hand-built storage map: where reads find an item's bytes,
// capacity and LRU eviction with write-back, and the errors that name the item.
#include <gtest/gtest.h>

#include "common/fatal.hpp"
#include "model/data_registry.hpp"

using namespace datasched;

namespace {

// Compute nodes 0..3, NVM endpoints 4..7, I/O servers 8 and 9.
StorageEndpoints endpoints_map()
{
  StorageEndpoints e(10);
  for (int n = 0; n < 4; ++n)
    e.add(4 + n, StorageEndpoints::Kind::Nvm, n);
  e.add(8, StorageEndpoints::Kind::IoServer, -1);
  e.add(9, StorageEndpoints::Kind::IoServer, -1);
  return e;
}

double sum(const std::vector<ItemFlow>& flows, ItemSource source)
{
  double total = 0;
  for (const auto& f : flows)
    if (f.source == source)
      total += f.bytes;
  return total;
}

} // namespace

TEST(DataRegistry, ReaderOnTheWritersNodesReadsLocally)
{
  const auto e = endpoints_map();
  DataRegistry r({}, {8, 9});
  r.begin_write("a");
  r.reserve(4, 50, "a", "n0-nvm");
  r.reserve(5, 50, "a", "n1-nvm");
  r.commit_nvm("a", {{4, 50}, {5, 50}}, 1.0);
  // Both parts on readers' nodes: everything local, each reader its own part.
  const auto flows = r.plan_read("a", 100, {0, 1}, e, 2.0);
  EXPECT_DOUBLE_EQ(sum(flows, ItemSource::LocalNvm), 100);
  EXPECT_DOUBLE_EQ(sum(flows, ItemSource::RemoteNvm), 0);
  // Readers elsewhere: each part spread over the readers (remote); a partial read
  // (40 of 100 bytes) reads 40 % of every part.
  const auto remote = r.plan_read("a", 40, {2, 3}, e, 3.0);
  EXPECT_DOUBLE_EQ(sum(remote, ItemSource::RemoteNvm), 40);
  EXPECT_EQ(remote.size(), 4u);
}

TEST(DataRegistry, CentralItemIsReadStripedOverTheServers)
{
  const auto e = endpoints_map();
  DataRegistry r({}, {8, 9});
  r.declare_on_central("in", 100);
  const auto flows = r.plan_read("in", 100, {0, 1}, e, 0);
  ASSERT_EQ(flows.size(), 4u); // 2 servers x 2 readers, 25 bytes each
  for (const auto& f : flows)
    EXPECT_DOUBLE_EQ(f.bytes, 25);
  EXPECT_DOUBLE_EQ(sum(flows, ItemSource::Central), 100);
}

TEST(DataRegistry, FullNvmEvictsTheLeastRecentlyUsedUnpinnedItemWithWriteBack)
{
  DataRegistry r({{4, 100}}, {8});
  for (const char* name : {"old", "new"}) {
    r.begin_write(name);
    r.reserve(4, 50, name, "n0-nvm");
    r.commit_nvm(name, {{4, 50}}, name[0] == 'o' ? 1.0 : 2.0);
  }
  r.add_central_copy("new", 3.0); // clean now, and most recently used
  r.pin("new");
  r.begin_write("third");
  const auto evicted = r.reserve(4, 50, "third", "n0-nvm");
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].item, "old");          // LRU and unpinned
  ASSERT_EQ(evicted[0].writeback.size(), 1u); // it was dirty: written back first
  EXPECT_DOUBLE_EQ(evicted[0].writeback[0].bytes, 50);
  EXPECT_TRUE(r.find("old")->on_central());
  EXPECT_FALSE(r.find("old")->on_nvm());
  EXPECT_DOUBLE_EQ(r.used_on(4), 100);
}

TEST(DataRegistry, ItemThatFitsNowhereIsAnErrorNamingIt)
{
  DataRegistry r({{4, 100}}, {8});
  r.begin_write("huge");
  try {
    r.reserve(4, 150, "huge", "node-0-nvm");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'huge'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("node-0-nvm"), std::string::npos) << e.what();
  }
}

TEST(DataRegistry, ReadBeforeAnyProducerIsAnErrorNamingTheItem)
{
  const auto e = endpoints_map();
  DataRegistry r({}, {8});
  try {
    r.plan_read("ghost", 1, {0}, e, 0);
    FAIL() << "expected an InputError";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("'ghost'"), std::string::npos) << err.what();
  }
}
