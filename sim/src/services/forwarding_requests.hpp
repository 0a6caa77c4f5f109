#pragma once
// What each client process asks for (the MPI-IO Test access patterns of seed 002), and
// where those bytes live on the data servers (files striped round-robin). Pure functions,
// tested in sim/tests/test_forwarding_requests.cpp.
#include <cstdint>
#include <vector>

#include "services/forwarding_types.hpp"

namespace datasched::forwarding {

/// One contiguous request of a client process: `size` bytes at `offset` of file `file`.
struct FileRange {
  int file             = 0;
  std::uint64_t offset = 0;
  std::uint64_t size   = 0;
};

/// The requests process `rank` (0-based within its application) issues, in issue order.
///   file_per_process : request i at i*R of the process's own file
///   shared_contiguous: request i at rank*B + i*R of the shared file (B bytes per process)
///   shared_strided   : request i at (i*P + rank)*R of the shared file (P processes): 1D-strided
/// `file` is `first_file + rank` for file_per_process, `first_file` otherwise. When B is
/// not a multiple of R (phase jobs; experiments forbid it) the last request is B mod R bytes.
std::vector<FileRange> process_requests(const Application& app, int rank, int first_file);

/// How many files an application opens (P for file_per_process, 1 otherwise).
int files_of(const Application& app);

/// A file striped over `servers` data servers in units of `stripe_size` bytes, stripe k
/// on server (first_server + k) mod servers (PVFS's simple striping; file f starts on
/// server f mod servers).
struct Striping {
  std::uint64_t stripe_size = 65536;
  int servers               = 1;

  int server_of(int file, std::uint64_t offset) const;
  /// The offset of file byte `offset` in the file's object on its server: stripe k is the
  /// (k div servers)-th stripe of that object.
  std::uint64_t object_offset_of(std::uint64_t offset) const;

  /// The bytes of `range` per server: one entry per server it touches, in the order the
  /// range first reaches them. The stripes a range holds on one server are contiguous in
  /// that server's object, so they form one server request.
  struct ServerShare {
    int server                  = 0;
    std::uint64_t bytes         = 0;
    std::uint64_t object_offset = 0; ///< where the share starts in the file's object on that server
  };
  std::vector<ServerShare> split(const FileRange& range) const;
};

} // namespace datasched::forwarding
