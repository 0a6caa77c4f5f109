#include "common/number_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace datasched {

std::optional<double> finite_number(const std::string& text)
{
  char* end      = nullptr;
  errno          = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    return std::nullopt;
  return v;
}

} // namespace datasched
