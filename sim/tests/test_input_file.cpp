// Input paths that are not files: a device or a pipe given as an input is refused before it
// is read (reading /dev/zero never ends, a pipe blocks until a writer comes); a regular
// file, a folder or a missing path is left to the reader, which words its own error.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/fatal.hpp"
#include "common/input_file.hpp"
#include "common/json_file.hpp"
#include "model/external_events.hpp"

using datasched::InputError;
using datasched::refuse_special_file;

namespace {

std::filesystem::path fresh_folder()
{
  auto folder = std::filesystem::temp_directory_path() / ("datasched-input-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

std::string refusal(const std::string& path)
{
  try {
    refuse_special_file(path, "workload");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(InputFile, DevicesAndPipesAreRefusedNamingThePath)
{
  const auto folder      = fresh_folder();
  const std::string pipe = (folder / "pipe").string();
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  EXPECT_EQ(refusal("/dev/zero"), "workload '/dev/zero': not a regular file (a device, pipe or socket, whose "
                                  "reading may never end)");
  EXPECT_NE(refusal(pipe).find("workload '" + pipe + "': not a regular file"), std::string::npos);
  std::filesystem::remove_all(folder);
}

TEST(InputFile, FilesFoldersAndMissingPathsAreLeftToTheReader)
{
  const auto folder      = fresh_folder();
  const std::string file = (folder / "w.json").string();
  std::ofstream(file) << "{}";
  EXPECT_EQ(refusal(file), "");
  EXPECT_EQ(refusal(folder.string()), "");
  EXPECT_EQ(refusal((folder / "missing.json").string()), "");
  std::filesystem::remove_all(folder);
}

TEST(InputFile, EveryReaderRefusesAPipeInsteadOfWaitingForAWriter)
{
  // Without the check each of these blocks for ever in open(2): the test would never end.
  const auto folder      = fresh_folder();
  const std::string pipe = (folder / "pipe").string();
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  EXPECT_THROW(datasched::read_json_file(pipe), InputError);
  EXPECT_THROW(datasched::load_external_events(pipe, 4, false), InputError);
  EXPECT_THROW(datasched::read_json_file("/dev/zero"), InputError);
  std::filesystem::remove_all(folder);
}
