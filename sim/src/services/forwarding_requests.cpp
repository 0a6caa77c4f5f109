#include "services/forwarding_requests.hpp"

#include <algorithm>

namespace datasched::forwarding {

int files_of(const Application& app)
{
  return app.pattern == AccessPattern::FilePerProcess ? app.processes : 1;
}

std::vector<FileRange> process_requests(const Application& app, int rank, int first_file)
{
  const std::uint64_t r     = app.request_size;
  const std::uint64_t count = (app.bytes_per_process + r - 1) / r; // the last one may be shorter

  std::vector<FileRange> out;
  out.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    FileRange range;
    range.size = std::min(r, app.bytes_per_process - i * r);
    switch (app.pattern) {
      case AccessPattern::FilePerProcess:
        range.file   = first_file + rank;
        range.offset = i * r;
        break;
      case AccessPattern::SharedContiguous:
        range.file   = first_file;
        range.offset = static_cast<std::uint64_t>(rank) * app.bytes_per_process + i * r;
        break;
      case AccessPattern::SharedStrided:
        range.file   = first_file;
        range.offset = (i * static_cast<std::uint64_t>(app.processes) + static_cast<std::uint64_t>(rank)) * r;
        break;
    }
    out.push_back(range);
  }
  return out;
}

int Striping::server_of(int file, std::uint64_t offset) const
{
  const std::uint64_t stripe = offset / stripe_size;
  return static_cast<int>((static_cast<std::uint64_t>(file) + stripe) % static_cast<std::uint64_t>(servers));
}

std::uint64_t Striping::object_offset_of(std::uint64_t offset) const
{
  const std::uint64_t stripe = offset / stripe_size;
  return stripe / static_cast<std::uint64_t>(servers) * stripe_size + offset % stripe_size;
}

std::vector<Striping::ServerShare> Striping::split(const FileRange& range) const
{
  std::vector<ServerShare> shares;
  std::uint64_t at        = range.offset;
  const std::uint64_t end = range.offset + range.size;
  while (at < end) {
    const std::uint64_t stripe_end = (at / stripe_size + 1) * stripe_size;
    const std::uint64_t piece      = std::min(end, stripe_end) - at;
    const int server               = server_of(range.file, at);
    auto it = std::find_if(shares.begin(), shares.end(), [&](const ServerShare& s) { return s.server == server; });
    if (it == shares.end())
      shares.push_back({server, piece, object_offset_of(at)});
    else
      it->bytes += piece;
    at += piece;
  }
  return shares;
}

} // namespace datasched::forwarding
