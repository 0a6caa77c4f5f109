#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace datasched::fuzz {

namespace {

/// One folder per process, removed at exit (tmpfs when the machine has one).
const std::filesystem::path& scratch_dir()
{
  static const std::filesystem::path dir = [] {
    std::filesystem::path base = std::filesystem::exists("/dev/shm") ? std::filesystem::path("/dev/shm")
                                                                     : std::filesystem::temp_directory_path();
    auto path                  = base / ("datasched-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_dir(), ignored);
    });
    return path;
  }();
  return dir;
}

} // namespace

std::string write_scratch_file(const std::string& name, const uint8_t* data, size_t size)
{
  const std::string path = (scratch_dir() / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write the scratch file %s\n", path.c_str());
    std::abort();
  }
  return path;
}

void property_failed(const std::string& what)
{
  std::fprintf(stderr, "fuzz: property broken: %s\n", what.c_str());
  std::abort();
}

} // namespace datasched::fuzz
