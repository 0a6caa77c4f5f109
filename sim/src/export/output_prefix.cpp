#include "export/output_prefix.hpp"

#include <filesystem>
#include <system_error>

#include <unistd.h>

namespace datasched {

std::string output_folder_problem(const std::string& prefix)
{
  namespace fs    = std::filesystem;
  fs::path folder = fs::path(prefix + "_jobs.csv").parent_path();
  if (folder.empty())
    folder = ".";
  std::error_code error;
  const fs::file_status status = fs::status(folder, error);
  if (!fs::exists(status))
    return "the folder '" + folder.string() + "' does not exist";
  if (!fs::is_directory(status))
    return "'" + folder.string() + "' is not a folder";
  if (access(folder.c_str(), W_OK | X_OK) != 0)
    return "the folder '" + folder.string() + "' is not writable";
  return "";
}

} // namespace datasched
