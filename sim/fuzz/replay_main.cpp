// A stand-in for libFuzzer's driver, for builds without clang (the CI smoke, `make test`).
//
//   datasched-fuzz-replay-TARGET [--mutations N] [--seed S] [--timeout-ms T] PATH...
//
// Runs LLVMFuzzerTestOneInput on every file of each PATH (a file or a folder: the seed
// corpus), then on N mutations of randomly chosen seeds, from a generator seeded with S
// (so one seed gives the same inputs on every run). The edits are those of
// tests/fuzz/mutate.py: bit flips, byte sets, token insertions, deletions, duplications,
// splices. An exception escaping the entry point is a crash: the input is written to
// crash-<n> in the current folder and the driver exits 1; an input slower than T ms
// (default 10 s) fails the run as a hang would. There is no coverage feedback and no
// sanitizer: that is bench/fuzz's clang build.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

const char* const kTokens[] = {"-1",
                               "0",
                               "-0",
                               "1e400",
                               "-1e400",
                               "nan",
                               "inf",
                               "1e-320",
                               "99999999999999999999999",
                               "9223372036854775808",
                               "{",
                               "}",
                               "[",
                               "]",
                               "\"",
                               ":",
                               ",",
                               "\n",
                               "\xff",
                               "null",
                               "true",
                               "- ",
                               "&a ",
                               "*a",
                               "<",
                               "/>",
                               "'",
                               ";"};

Bytes read_file(const std::filesystem::path& path)
{
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Bytes mutate(Bytes buf, const std::vector<Bytes>& seeds, std::mt19937_64& rng)
{
  auto below         = [&rng](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  const size_t edits = 1 + below(4);
  for (size_t e = 0; e < edits; ++e) {
    const size_t kind = below(6);
    const size_t pos  = below(buf.size() + 1);
    if (kind == 0 && !buf.empty()) {
      buf[below(buf.size())] ^= static_cast<uint8_t>(1u << below(8));
    } else if (kind == 1 && !buf.empty()) {
      buf[below(buf.size())] = static_cast<uint8_t>(below(256));
    } else if (kind == 2) {
      const std::string token = kTokens[below(std::size(kTokens))];
      buf.insert(buf.begin() + static_cast<std::ptrdiff_t>(pos), token.begin(), token.end());
    } else if (kind == 3 && !buf.empty()) {
      const size_t end = std::min(buf.size(), pos + 1 + below(16));
      buf.erase(buf.begin() + static_cast<std::ptrdiff_t>(pos), buf.begin() + static_cast<std::ptrdiff_t>(end));
    } else if (kind == 4 && !buf.empty()) {
      const size_t start = below(buf.size());
      const size_t end   = std::min(buf.size(), start + 1 + below(64));
      const Bytes chunk(buf.begin() + static_cast<std::ptrdiff_t>(start),
                        buf.begin() + static_cast<std::ptrdiff_t>(end));
      buf.insert(buf.begin() + static_cast<std::ptrdiff_t>(pos), chunk.begin(), chunk.end());
    } else if (!seeds.empty()) {
      const Bytes& other = seeds[below(seeds.size())];
      const size_t cut   = below(other.size() + 1);
      buf.resize(pos);
      buf.insert(buf.end(), other.begin() + static_cast<std::ptrdiff_t>(cut), other.end());
    }
  }
  return buf;
}

[[noreturn]] void crash(const Bytes& input, const std::string& what, const std::string& origin)
{
  static int count       = 0;
  const std::string name = "crash-" + std::to_string(count++);
  std::ofstream(name, std::ios::binary)
      .write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
  std::fprintf(stderr, "CRASH on %s: %s (input written to %s)\n", origin.c_str(), what.c_str(), name.c_str());
  std::exit(1);
}

} // namespace

int main(int argc, char** argv)
{
  long mutations          = 0;
  unsigned long long seed = 1;
  double timeout_ms       = 10000;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--mutations" || arg == "--seed" || arg == "--timeout-ms") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--mutations")
        mutations = std::stol(value);
      else if (arg == "--seed")
        seed = std::stoull(value);
      else
        timeout_ms = std::stod(value);
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> entries;
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file())
          entries.push_back(entry.path());
      std::sort(entries.begin(), entries.end());
      files.insert(files.end(), entries.begin(), entries.end());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "%s: no such file or folder, or an option without its value: %s\n", argv[0], arg.c_str());
      return 2;
    }
  }
  std::vector<Bytes> seeds;
  for (const auto& f : files)
    seeds.push_back(read_file(f));

  double slowest_ms = 0;
  std::string slowest;
  auto run = [&](const Bytes& input, const std::string& origin) {
    const auto start = std::chrono::steady_clock::now();
    try {
      LLVMFuzzerTestOneInput(input.data(), input.size());
    } catch (const std::exception& e) {
      crash(input, std::string("uncaught exception: ") + e.what(), origin);
    } catch (...) {
      crash(input, "uncaught exception of an unknown type", origin);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (ms > slowest_ms) {
      slowest_ms = ms;
      slowest    = origin;
    }
    if (ms > timeout_ms)
      crash(input, "took " + std::to_string(ms) + " ms (a hang?)", origin);
  };
  for (size_t i = 0; i < files.size(); ++i)
    run(seeds[i], files[i].string());
  std::mt19937_64 rng(seed);
  for (long m = 0; m < mutations; ++m) {
    if (seeds.empty())
      break;
    const size_t pick = static_cast<size_t>(rng() % seeds.size());
    run(mutate(seeds[pick], seeds, rng), "mutation " + std::to_string(m) + " of " + files[pick].string());
  }
  std::printf("%zu inputs (%zu seed files, %ld mutations, seed %llu): 0 crashes; slowest %.1f ms (%s)\n",
              files.size() + static_cast<size_t>(seeds.empty() ? 0 : mutations), files.size(),
              seeds.empty() ? 0 : mutations, seed, slowest_ms, slowest.c_str());
  return 0;
}
