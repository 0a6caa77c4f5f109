#include "common/batsim_number.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace datasched {

namespace {

/// 10^n as the nearest double, for n in [0, 308] (the table rapidjson divides and
/// multiplies by). strtod converts "1e<n>" correctly rounded.
const std::array<double, 309>& powers_of_ten()
{
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    std::array<char, 8> text{};
    for (int n = 0; n < 309; ++n) {
      std::snprintf(text.data(), text.size(), "1e%d", n);
      t[static_cast<size_t>(n)] = std::strtod(text.data(), nullptr);
    }
    return t;
  }();
  return table;
}

/// significand × 10^exponent, with rapidjson's single multiplication or division.
double scale_by_power_of_ten(double significand, int exponent)
{
  if (exponent < -308)
    return 0.0;
  if (exponent >= 0)
    return significand * powers_of_ten()[static_cast<size_t>(exponent)];
  return significand / powers_of_ten()[static_cast<size_t>(-exponent)];
}

bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

} // namespace

double batsim_json_number(std::string_view text)
{
  size_t k         = 0;
  const size_t n   = text.size();
  auto digit_at    = [&](size_t i) { return i < n && is_digit(text[i]); };
  const bool minus = k < n && text[k] == '-';
  if (minus)
    ++k;

  // Integer part: exact in 64 bits up to rapidjson's overflow guard, then in a double.
  // rapidjson counts every integer digit but the first as significant.
  std::uint64_t integer       = 0;
  double value                = 0.0;
  bool in_double              = false;
  int significant             = 0;
  const std::uint64_t guard   = minus ? 0x0CCCCCCCCCCCCCCCULL : 0x1999999999999999ULL;
  const char guard_last_digit = minus ? '8' : '5';
  if (digit_at(k)) {
    const bool leading_zero = text[k] == '0';
    integer                 = static_cast<std::uint64_t>(text[k++] - '0');
    if (!leading_zero) {
      while (digit_at(k)) {
        if (integer >= guard && (integer != guard || text[k] > guard_last_digit)) {
          value     = static_cast<double>(integer);
          in_double = true;
          break;
        }
        integer = integer * 10 + static_cast<std::uint64_t>(text[k++] - '0');
        ++significant;
      }
      while (in_double && digit_at(k))
        value = value * 10 + (text[k++] - '0');
    }
  }

  // Fraction: more digits into the integer while it stays below 2^53, then into the
  // double while fewer than 17 digits are significant; later digits are ignored.
  int fraction_exponent = 0;
  if (k < n && text[k] == '.') {
    ++k;
    if (!in_double) {
      while (digit_at(k) && integer <= 0x1FFFFFFFFFFFFFULL) {
        integer = integer * 10 + static_cast<std::uint64_t>(text[k++] - '0');
        --fraction_exponent;
        if (integer != 0)
          ++significant;
      }
      value     = static_cast<double>(integer);
      in_double = true;
    }
    for (; digit_at(k); ++k) {
      if (significant >= 17)
        continue;
      value = value * 10.0 + (text[k] - '0');
      --fraction_exponent;
      if (value > 0.0)
        ++significant;
    }
  }

  int exponent = 0;
  if (k < n && (text[k] == 'e' || text[k] == 'E')) {
    ++k;
    if (!in_double) {
      value     = static_cast<double>(integer);
      in_double = true;
    }
    bool exponent_minus = false;
    if (k < n && (text[k] == '+' || text[k] == '-'))
      exponent_minus = text[k++] == '-';
    while (digit_at(k)) {
      if (exponent < 100000) // larger exponents make 0 or infinity either way
        exponent = exponent * 10 + (text[k] - '0');
      ++k;
    }
    if (exponent_minus)
      exponent = -exponent;
  }

  if (!in_double) // an integer: rapidjson keeps it as one, GetDouble() converts it
    return minus ? -static_cast<double>(integer) : static_cast<double>(integer);
  const int power = exponent + fraction_exponent;
  if (power > 308) // rapidjson refuses such a number (too big); nlohmann already has
    return minus ? -HUGE_VAL : HUGE_VAL;
  if (power < -308) // rapidjson divides in two steps so that 10^power stays a double
    value = scale_by_power_of_ten(scale_by_power_of_ten(value, -308), power + 308);
  else
    value = scale_by_power_of_ten(value, power);
  return minus ? -value : value;
}

namespace {
/// nlohmann's DOM builder, except that decimal numbers are converted from their text as
/// Batsim converts them.
class BatsimNumbersDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
public:
  using json_sax_dom_parser::json_sax_dom_parser;
  bool number_float(number_float_t, const string_t& text)
  {
    return json_sax_dom_parser::number_float(batsim_json_number(text), text);
  }
};
} // namespace

nlohmann::json parse_json_as_batsim(const std::string& text)
{
  nlohmann::json doc;
  BatsimNumbersDom builder(doc);
  nlohmann::json::sax_parse(text, &builder);
  return doc;
}

} // namespace datasched
