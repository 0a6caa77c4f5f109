#pragma once
// A number written as text in a platform property or an option value ("2e9", "0.5").
// One reader for every such place, so each accepts the same texts: the whole text must be
// one number as strtod reads it (no trailing characters), and finite ("inf", "nan" and
// overflowing texts are refused). Each caller says which range is valid and words the
// error, naming the file, host or option.
#include <optional>
#include <string>

namespace datasched {

/// The finite number that is the whole of `text`, or nothing.
std::optional<double> finite_number(const std::string& text);

} // namespace datasched
