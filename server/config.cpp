// The server's settings (server/config.hpp): CLI11 parses the command line and the rows of
// server/config_options.hpp check each value, from the flag or else from the environment.
#include "server/config.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <map>
#include <thread>
#include <vector>

#include "server/config_options.hpp"
#include "server/net/tls.hpp"

namespace tanbo_server::server {
namespace {

unsigned default_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

namespace {

// The environment's values, so that a flag read later overrides them; the first bad one.
std::optional<ConfigError> read_env(Config& c, const EnvLookup& env) {
  for (const auto& o : config_options()) {
    if (o.env.empty()) continue;
    auto value = env(std::string(o.env));
    if (!value || value->empty()) continue;
    if (auto bad = o.set(c, *value); !bad.empty())
      return ConfigError{std::string(o.env) + ": " + bad};
  }
  return std::nullopt;
}

// CLI11 takes `--port=` for a bare `--port`, whose value is the next argument; it is the empty
// value here, passed as an argument of its own. CLI11 wants the arguments last first.
std::vector<std::string> for_cli11(std::span<const std::string_view> args) {
  std::vector<std::string> reversed;
  for (auto it = args.rbegin(); it != args.rend(); ++it) {
    if (it->starts_with("--") && it->find('=') == it->size() - 1) {
      reversed.emplace_back();
      reversed.emplace_back(it->substr(0, it->size() - 1));
    } else {
      reversed.emplace_back(*it);
    }
  }
  return reversed;
}

// The line's mistake as CLI11 finds it (an unknown option, a value missing), if any.
std::optional<ConfigError> parse_line(CLI::App& app, std::vector<std::string> reversed) {
  const std::string last = reversed.empty() ? std::string() : reversed.front();
  try {
    app.parse(std::move(reversed));
  } catch (const CLI::ExtrasError&) {
    std::string extra = app.remaining().front();
    return extra.starts_with("--")
               ? ConfigError{"unknown option '" + extra.substr(0, extra.find('=')) + "'"}
               : ConfigError{"unexpected argument '" + extra + "'"};
  } catch (const CLI::ArgumentMismatch& e) {
    // Arguments run out at the end of the line only: the last one wants a value.
    for (const auto& o : config_options())
      if (o.flag == last)
        return ConfigError{last + " needs a value (" + std::string(o.metavar) + ")"};
    return ConfigError{e.what()};
  } catch (const CLI::ParseError& e) {
    return ConfigError{e.what()};  // CallForHelp, CallForVersion: answered by the caller
  }
  return std::nullopt;
}

// The options that only make sense together.
std::optional<ConfigError> combination_problem(const Config& c) {
  if (c.cluster.empty() && (!c.node_id.empty() || c.cluster_lease_ms != Config{}.cluster_lease_ms))
    return ConfigError{"--node-id and --cluster-lease-ms need --cluster"};
  if (!c.mail_command.empty() && (c.mail_from.empty() || c.public_url.empty()))
    return ConfigError{"--mail-command needs --mail-from and --public-url"};
  if (c.tls_cert.empty() != c.tls_key.empty())
    return ConfigError{"--tls-cert and --tls-key go together: give both or neither"};
  // The probe never reads them: it does not verify the server's certificate.
  if (!c.tls_cert.empty() && !c.healthcheck)
    if (auto bad = tls_files_problem(c.tls_cert, c.tls_key); !bad.empty()) return ConfigError{bad};
  return std::nullopt;
}

}  // namespace

ParseOutcome parse_config(std::span<const std::string_view> args, const EnvLookup& env) {
  Config c;
  c.threads = default_threads();
  // The environment's first bad value waits until --help and --version have had their say.
  std::optional<ConfigError> env_error = read_env(c, env);

  // CLI11 matches the arguments to the rows and keeps each value as a string; usage() writes the
  // help from the rows, so CLI11's own help text is not used. A value repeated: the last wins.
  CLI::App app{"", "tanbo-server"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const CLI::Option* version = app.set_version_flag("--version");
  std::map<const CLI::Option*, const Option*> row_of;
  for (const auto& o : config_options()) {
    // `{}`: a bare switch gives an empty value, so `--healthcheck=VALUE` shows as a value.
    row_of[o.metavar.empty() ? app.add_flag(std::string(o.flag) + "{}")
                             : app.add_option(std::string(o.flag))] = &o;
  }
  std::optional<ConfigError> cli_error = parse_line(app, for_cli11(args));
  // --help and --version anywhere on the line win over every mistake.
  if (app.get_help_ptr()->count() > 0) return HelpRequested{};
  if (version->count() > 0) return VersionRequested{};
  if (env_error) return *env_error;
  if (cli_error) return *cli_error;

  // The rows check the values, in the order they were given.
  std::map<const CLI::Option*, std::size_t> taken;
  for (const CLI::Option* opt : app.parse_order()) {
    auto row = row_of.find(opt);
    if (row == row_of.end()) continue;
    const Option& o = *row->second;
    const std::string& value = opt->results()[taken[opt]++];
    if (o.metavar.empty() && !value.empty())
      return ConfigError{std::string(o.flag) + " takes no value"};
    if (auto bad = o.set(c, value); !bad.empty())
      return ConfigError{std::string(o.flag) + ": " + bad};
  }
  if (auto bad = combination_problem(c)) return *bad;
  return c;
}

ParseOutcome parse_config(int argc, const char* const* argv) {
  std::vector<std::string_view> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return parse_config(args, process_env);
}

std::string usage() {
  std::string s =
      "Usage: tanbo-server [OPTION]...\n"
      "Serves the Tanbo games over HTTP and WebSocket (/ws).\n\n"
      "Options (each also read from the environment variable shown; a flag wins):\n";
  for (const auto& o : config_options()) {
    // append() throughout: GCC 12 misreports `"literal" + std::string` under -Wrestrict.
    s.append("  ").append(o.flag);
    if (!o.metavar.empty()) s.append(" ").append(o.metavar);
    if (!o.env.empty()) s.append("  [").append(o.env).append("]");
    s.append("\n      ").append(o.help).append("\n");
  }
  s += "  --version\n      print the version and exit\n"
       "  -h, --help\n      print this help and exit\n\n"
       "An unknown option or a bad value exits with status 2.\n";
  return s;
}

}  // namespace tanbo_server::server
