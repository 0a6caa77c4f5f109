// Fuzz target: batsim_json_number (common/batsim_number.cpp), Batsim 4.2.1's
// (rapidjson's) decimal-to-double conversion. Its inputs are JSON number texts (the
// lexer has checked the grammar), so other inputs are skipped here. Properties: never NaN,
// the sign of the text, and close to the correctly rounded value (strtod) for normal
// results. How close: rapidjson accumulates digits in a double (value * 10 + digit, one
// rounding each, relative error at most 2^-53 per step) and then scales by a power of
// ten (one or two more roundings), so the error is bounded by about one unit in the last
// place per digit of the text plus a few; the bound below is digits + 8 ulps. (A first
// bound of 8 ulps was wrong: a 220-digit integer lands 8.07 ulps away, as in rapidjson.)
#include <cmath>
#include <cstdlib>
#include <string>

#include "common/batsim_number.hpp"
#include "fuzz_support.hpp"

namespace {

/// RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
bool is_json_number(const std::string& s)
{
  size_t k       = 0;
  const size_t n = s.size();
  auto digits    = [&] {
    const size_t start = k;
    while (k < n && s[k] >= '0' && s[k] <= '9')
      ++k;
    return k > start;
  };
  if (k < n && s[k] == '-')
    ++k;
  if (k < n && s[k] == '0')
    ++k;
  else if (!digits())
    return false;
  if (k < n && s[k] == '.') {
    ++k;
    if (!digits())
      return false;
  }
  if (k < n && (s[k] == 'e' || s[k] == 'E')) {
    ++k;
    if (k < n && (s[k] == '+' || s[k] == '-'))
      ++k;
    if (!digits())
      return false;
  }
  return k == n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = datasched::fuzz::text_of(data, size);
  if (!is_json_number(text))
    return 0;
  const double value = datasched::batsim_json_number(text);
  if (std::isnan(value))
    datasched::fuzz::property_failed("NaN for " + text);
  if (value != 0 && std::signbit(value) != (text[0] == '-'))
    datasched::fuzz::property_failed("wrong sign for " + text);
  const double exact = std::strtod(text.c_str(), nullptr);
  if (std::isnormal(exact) && std::isnormal(value) && std::fabs(exact) < 1e300) {
    const double ulps = std::fabs(value - exact) / (std::fabs(exact) * 0x1p-52);
    if (ulps > static_cast<double>(text.size()) + 8)
      datasched::fuzz::property_failed(text + " gives " + std::to_string(value) + ", " + std::to_string(ulps) +
                                       " ulps from the correctly rounded value");
  }
  return 0;
}
