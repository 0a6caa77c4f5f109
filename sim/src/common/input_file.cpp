#include "common/input_file.hpp"

#include <sys/stat.h>

#include "common/fatal.hpp"

namespace datasched {

void refuse_special_file(const std::string& path, const std::string& what)
{
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    return;
  if (!S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode))
    throw InputError(what + " '" + path +
                     "': not a regular file (a device, pipe or socket, whose reading may never end)");
}

} // namespace datasched
