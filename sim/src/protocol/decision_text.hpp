#pragma once
// A canonical text of a parsed decision message, or of the error that refused it.
//
// Why: the fast decision reader must give exactly what the general reader gives, for
// any input (protocol/decision_fast_reader.hpp). The unit test and the decision-reader
// fuzz target (sim/fuzz/decisions.cpp) both compare the two readers through this text.
#include <string>

#include "protocol/reader.hpp"

namespace datasched {

/// Every field of every decision, numbers with 17 significant digits.
std::string describe_decisions(const DecisionMessage& message);

/// describe_decisions(parse(text)), or "error: <message>" when parse throws InputError.
std::string decision_outcome(DecisionMessage (*parse)(const std::string&), const std::string& text);

} // namespace datasched
