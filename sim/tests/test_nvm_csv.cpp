// NVM occupancy over time (`<prefix>_nvm.csv`): the data registry reports every change
// of an NVM's usage, NvmCsv dates them and merges the changes of one date.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "export/nvm_csv.hpp"
#include "model/data_registry.hpp"

using namespace datasched;

namespace {

std::string written(NvmCsv& csv)
{
  std::string pattern = (std::filesystem::temp_directory_path() / "datasched-nvm-XXXXXX").string();
  const std::filesystem::path dir(mkdtemp(pattern.data()));
  const auto path = dir / "out_nvm.csv";
  csv.write(path.string());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove_all(dir);
  return text.str();
}

} // namespace

// NVM endpoint 4 of node "n0", capacity 100 bytes; I/O server 8. By hand:
//   t = 1  write a (60 B)                          -> used 60
//   t = 2  read a (a read moves no NVM room)        -> no row
//   t = 3  write b (70 B): a (dirty, LRU) evicted   -> 60 - 60 + 70 = 70
//   t = 4  rewrite b with 70 B (freed, re-reserved) -> still 70: no row
//   t = 5  a killed write of c (20 B) gives it back -> 90 then 70 at t = 5: no row
//   t = 6  b dropped                                 -> 0
TEST(NvmCsv, RowsAreTheRegistrysUsageChangesMergedPerDate)
{
  StorageEndpoints e(10);
  e.add(4, StorageEndpoints::Kind::Nvm, 0);
  e.add(8, StorageEndpoints::Kind::IoServer, -1);
  DataRegistry r({{4, 100.0}}, {8});
  NvmCsv csv;
  csv.add_device(4, "n0-nvm", "n0", r.capacity_of(4));
  double now = 0;
  r.set_usage_listener([&](int nvm, double used) { csv.record(now, nvm, used); });

  now = 1;
  r.begin_write("a");
  r.reserve(4, 60, "a", "n0-nvm");
  r.commit_nvm("a", {{4, 60}}, now);
  now = 2;
  r.plan_read("a", 60, {0}, e, now);
  now = 3;
  r.begin_write("b");
  const auto evicted = r.reserve(4, 70, "b", "n0-nvm");
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].item, "a");
  r.commit_nvm("b", {{4, 70}}, now);
  now = 4;
  r.begin_write("b");
  r.reserve(4, 70, "b", "n0-nvm");
  r.commit_nvm("b", {{4, 70}}, now);
  now = 5;
  r.reserve(4, 20, "c", "n0-nvm");
  r.release(4, 20);
  now = 6;
  r.drop_nvm_copy("b");

  EXPECT_EQ(written(csv), "time,nvm,host,used_bytes,capacity_bytes\n"
                          "1.000000,n0-nvm,n0,60.000000,100.000000\n"
                          "3.000000,n0-nvm,n0,70.000000,100.000000\n"
                          "6.000000,n0-nvm,n0,0.000000,100.000000\n");
}

// An unlimited NVM has an empty capacity; a rounding residue of an emptied NVM is 0.
TEST(NvmCsv, UnlimitedCapacityIsEmptyAndResiduesPrintAsZero)
{
  NvmCsv csv;
  csv.add_device(4, "n0-nvm", "n0", DataRegistry({}, {}).capacity_of(4));
  csv.record(0.5, 4, 0.1 + 0.2);
  csv.record(1.5, 4, -1e-12); // 0.1 + 0.2 - 0.3 after float arithmetic
  EXPECT_EQ(written(csv), "time,nvm,host,used_bytes,capacity_bytes\n"
                          "0.500000,n0-nvm,n0,0.300000,\n"
                          "1.500000,n0-nvm,n0,0.000000,\n");
}
