#pragma once
// Inputs that are not files: an input path naming a device, a pipe or a socket is refused
// before it is read, since reading /dev/zero never ends (and fills the memory) and a pipe
// blocks until a writer comes: such an input would hang the engine instead of failing.

#include <string>

namespace datasched {

/// Throws InputError("<what> '<path>': not a regular file ...") when `path` exists and is
/// neither a regular file nor a folder (a missing file or a folder is left to the reader's
/// own wording). stat(2) itself never blocks.
void refuse_special_file(const std::string& path, const std::string& what);

} // namespace datasched
