#pragma once
// The server's settings, one row each: its flag, its environment variable, the help line
// usage() prints, and the setter that checks a value and stores it (config_options.cpp).
// parse_config (config.cpp) reads the rows.
#include <span>
#include <string>
#include <string_view>

#include "server/config.hpp"

namespace tanbo_server::server {

struct Option {
  std::string_view flag;
  std::string_view env;      // empty: no environment variable
  std::string_view metavar;  // empty: a switch, takes no value
  std::string_view help;
  // What the setter says of a bad value; empty when the value was taken.
  std::string (*set)(Config&, std::string_view);
};

std::span<const Option> config_options();

}  // namespace tanbo_server::server
