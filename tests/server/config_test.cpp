#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "server/config.hpp"

using namespace tanbo_server::server;

namespace {

struct Env {
  std::map<std::string, std::string> vars;
  std::optional<std::string> operator()(const std::string& name) const {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  }
};

ParseOutcome parse(std::vector<std::string_view> args, Env env = {}) {
  return parse_config(args, env);
}

Config config_of(const ParseOutcome& o) {
  if (auto* e = std::get_if<ConfigError>(&o)) FAIL("unexpected error: " << e->message);
  REQUIRE(std::holds_alternative<Config>(o));
  return std::get<Config>(o);
}

std::string error_of(const ParseOutcome& o) {
  REQUIRE(std::holds_alternative<ConfigError>(o));
  return std::get<ConfigError>(o).message;
}

}  // namespace

TEST_CASE("server settings come from flags, then the environment, then defaults",
          "[server][config]") {
  SECTION("with nothing given, the documented defaults apply") {
    Config c = config_of(parse({}));
    CHECK(c.bind == "0.0.0.0");
    CHECK(c.port == 8080);
    CHECK(c.data_dir == "./data");
    CHECK(c.log_level == "info");
    CHECK(c.threads >= 1);
    CHECK_FALSE(c.healthcheck);
  }
  SECTION("every flag sets its field, as `--flag value` or `--flag=value`") {
    Config c = config_of(parse({"--bind", "127.0.0.1", "--port=9000", "--data-dir", "/srv/t",
                                "--log-level=debug", "--threads", "3"}));
    CHECK(c.bind == "127.0.0.1");
    CHECK(c.port == 9000);
    CHECK(c.data_dir == "/srv/t");
    CHECK(c.log_level == "debug");
    CHECK(c.threads == 3);
  }
  SECTION("every variable sets its field") {
    Config c = config_of(parse({}, Env{{{"TANBO_BIND", "::1"},
                                        {"TANBO_PORT", "0"},
                                        {"TANBO_DATA_DIR", "d"},
                                        {"TANBO_LOG_LEVEL", "warn"},
                                        {"TANBO_THREADS", "5"}}}));
    CHECK(c.bind == "::1");
    CHECK(c.port == 0);
    CHECK(c.data_dir == "d");
    CHECK(c.log_level == "warn");
    CHECK(c.threads == 5);
  }
  SECTION("a flag wins over its variable") {
    Config c = config_of(parse({"--port", "7000"}, Env{{{"TANBO_PORT", "6000"}}}));
    CHECK(c.port == 7000);
  }
  SECTION("an empty variable counts as unset") {
    Config c = config_of(parse({}, Env{{{"TANBO_PORT", ""}}}));
    CHECK(c.port == 8080);
  }
  SECTION("--healthcheck is a switch") {
    CHECK(config_of(parse({"--healthcheck", "--port", "1"})).healthcheck);
    CHECK_THAT(error_of(parse({"--healthcheck=yes"})), Catch::Contains("takes no value"));
  }
  SECTION("--help and --version are answered before anything is checked") {
    CHECK(std::holds_alternative<HelpRequested>(parse({"--port", "1", "--help"})));
    CHECK(std::holds_alternative<HelpRequested>(parse({"-h"})));
    CHECK(std::holds_alternative<VersionRequested>(parse({"--version"})));
  }
}

TEST_CASE("a bad server setting is an error naming the flag or variable", "[server][config]") {
  using Row = std::tuple<std::vector<std::string_view>, std::string, std::string>;
  auto [args, env_port, expected] =
      GENERATE(table<std::vector<std::string_view>, std::string, std::string>({
          Row{{"--nope"}, "", "unknown option '--nope'"},
          Row{{"--nope=1"}, "", "unknown option '--nope'"},
          Row{{"serve"}, "", "unexpected argument 'serve'"},
          Row{{"--port"}, "", "--port needs a value"},
          Row{{"--port", "65536"}, "", "--port: expected a port number"},
          Row{{"--port", "-1"}, "", "--port: expected a port number"},
          Row{{"--port", "80x"}, "", "--port: expected a port number"},
          Row{{"--port", " 80"}, "", "--port: expected a port number"},
          Row{{"--port="}, "", "--port: expected a port number"},
          Row{{"--threads", "0"}, "", "--threads: expected a thread count"},
          Row{{"--threads", "99999999999999999999"}, "", "--threads: expected a thread count"},
          Row{{"--bind", "localhost"}, "", "--bind: expected an IPv4 or IPv6 address"},
          Row{{"--log-level", "loud"}, "", "--log-level: expected one of"},
          Row{{"--data-dir="}, "", "--data-dir: expected a directory"},
          Row{{}, "http", "TANBO_PORT: expected a port number"},
          Row{{"--port", "80"}, "99999", "TANBO_PORT: expected a port number"},
      }));
  CAPTURE(args, env_port);
  Env env;
  if (!env_port.empty()) env.vars["TANBO_PORT"] = env_port;
  CHECK_THAT(error_of(parse(args, env)), Catch::Contains(expected));
}

TEST_CASE("the usage text lists every flag with its variable", "[server][config]") {
  std::string u = usage();
  for (const char* s : {"--bind", "TANBO_BIND", "--port", "TANBO_PORT", "--data-dir",
                        "TANBO_DATA_DIR", "--log-level", "TANBO_LOG_LEVEL", "--threads",
                        "TANBO_THREADS", "--healthcheck", "--help"}) {
    CAPTURE(s);
    CHECK_THAT(u, Catch::Contains(s));
  }
}

TEST_CASE("the command line: values, switches, repeats and what wins", "[server][config]") {
  SECTION("a value may look like a flag: the argument after a flag is its value") {
    CHECK(config_of(parse({"--data-dir", "--help"})).data_dir == "--help");
    CHECK(config_of(parse({"--data-dir", "--"})).data_dir == "--");
    CHECK_THAT(error_of(parse({"--port", "--help"})), Catch::Contains("--port: expected a port"));
  }
  SECTION("a flag given twice: the last value wins, and both are checked") {
    CHECK(config_of(parse({"--port", "1", "--port=2"})).port == 2);
    CHECK_THAT(error_of(parse({"--port", "x", "--port", "2"})), Catch::Contains("--port: "));
  }
  SECTION("--ranked-requires-account is a switch; its variable may turn it off") {
    CHECK_FALSE(config_of(parse({})).ranked_requires_account);
    CHECK(config_of(parse({"--ranked-requires-account"})).ranked_requires_account);
    CHECK_FALSE(config_of(parse({}, Env{{{"TANBO_RANKED_REQUIRES_ACCOUNT", "false"}}}))
                    .ranked_requires_account);
    CHECK(config_of(
              parse({"--ranked-requires-account"}, Env{{{"TANBO_RANKED_REQUIRES_ACCOUNT", "0"}}}))
              .ranked_requires_account);
    CHECK_THAT(error_of(parse({"--ranked-requires-account=1"})), Catch::Contains("takes no value"));
    CHECK_THAT(error_of(parse({"--healthcheck=true"})), Catch::Contains("takes no value"));
    CHECK(std::holds_alternative<ConfigError>(parse({"--healthcheck="})));
  }
  SECTION("the first mistake on the line is the one reported") {
    CHECK_THAT(error_of(parse({"--port", "x", "--threads", "0"})), Catch::Contains("--port: "));
    CHECK_THAT(error_of(parse({"--threads", "0", "--port", "x"})), Catch::Contains("--threads: "));
    CHECK_THAT(error_of(parse({"--port", "1", "stray", "--nope"})),
               Catch::Contains("unexpected argument 'stray'"));
    CHECK_THAT(error_of(parse({"-x"})), Catch::Contains("unexpected argument '-x'"));
    CHECK_THAT(error_of(parse({"--bind", "::1", "--port"})),
               Catch::Contains("--port needs a value (N)"));
  }
  SECTION("--help or --version anywhere answers, whatever else is wrong") {
    CHECK(std::holds_alternative<HelpRequested>(parse({"--nope", "--help"})));
    CHECK(std::holds_alternative<HelpRequested>(parse({"--help", "--port"})));
    CHECK(std::holds_alternative<HelpRequested>(parse({"--port", "x", "-h"})));
    CHECK(std::holds_alternative<VersionRequested>(parse({"serve", "--version"})));
    CHECK(std::holds_alternative<HelpRequested>(parse({"--help"}, Env{{{"TANBO_PORT", "x"}}})));
  }
}

TEST_CASE("the usage text shows each flag's value name and variable", "[server][config]") {
  std::string u = usage();
  for (const char* s : {"  --port N  [TANBO_PORT]\n", "  --bind ADDR  [TANBO_BIND]\n",
                        "  --ranked-requires-account  [TANBO_RANKED_REQUIRES_ACCOUNT]\n",
                        "  --healthcheck\n", "  --version\n", "  -h, --help\n", "status 2"}) {
    CAPTURE(s);
    CHECK_THAT(u, Catch::Contains(s));
  }
}

TEST_CASE("compression is on unless turned off, by flag or variable", "[server][config]") {
  CHECK(config_of(parse({})).compression);
  CHECK_FALSE(config_of(parse({"--compression", "off"})).compression);
  CHECK_FALSE(config_of(parse({}, Env{{{"TANBO_COMPRESSION", "off"}}})).compression);
  CHECK(config_of(parse({"--compression=on"}, Env{{{"TANBO_COMPRESSION", "off"}}})).compression);
  CHECK_THAT(error_of(parse({"--compression", "yes"})),
             Catch::Contains("--compression: expected on or off, got 'yes'"));
}

TEST_CASE("the network edge's limits and the allowed origins, by flag or variable",
          "[server][config]") {
  Config d = config_of(parse({}));
  CHECK(d.ws_per_address == 32);
  CHECK(d.hello_timeout == 10);
  CHECK(d.allowed_origins.empty());
  Config c = config_of(parse({"--ws-per-address", "5", "--hello-timeout=3", "--allowed-origins",
                              "https://play.example.org, http://localhost:8080"}));
  CHECK(c.ws_per_address == 5);
  CHECK(c.hello_timeout == 3);
  CHECK(c.allowed_origins ==
        std::vector<std::string>{"https://play.example.org", "http://localhost:8080"});
  Config e = config_of(parse({}, Env{{{"TANBO_WS_PER_ADDRESS", "7"},
                                      {"TANBO_HELLO_TIMEOUT", "20"},
                                      {"TANBO_ALLOWED_ORIGINS", "*"}}}));
  CHECK(e.ws_per_address == 7);
  CHECK(e.hello_timeout == 20);
  CHECK(e.allowed_origins == std::vector<std::string>{"*"});
  CHECK_THAT(error_of(parse({"--ws-per-address", "0"})), Catch::Contains("--ws-per-address"));
  CHECK_THAT(error_of(parse({"--hello-timeout", "0"})), Catch::Contains("--hello-timeout"));
  CHECK_THAT(error_of(parse({"--allowed-origins", "play.example.org"})),
             Catch::Contains("--allowed-origins: expected origins like"));
  CHECK_THAT(error_of(parse({"--allowed-origins", "https://play.example.org/"})),
             Catch::Contains("--allowed-origins"));
}

TEST_CASE("mail: a sendmail-compatible command, its From and the page's address go together",
          "[server][config][mail]") {
  Config none = config_of(parse({}));
  CHECK(none.mail_command.empty());
  CHECK(none.mail_timeout == 30);
  Config c = config_of(parse({"--mail-command", "/usr/sbin/sendmail -t -i", "--mail-from",
                              "Tanbo <tanbo@example.org>", "--public-url",
                              "https://play.example.org/", "--mail-timeout", "5"}));
  CHECK(c.mail_command == "/usr/sbin/sendmail -t -i");
  CHECK(c.mail_from == "Tanbo <tanbo@example.org>");
  CHECK(c.public_url == "https://play.example.org");  // its trailing '/' dropped
  CHECK(c.mail_timeout == 5);
  Config env = config_of(parse({}, Env{{{"TANBO_MAIL_COMMAND", "msmtp -t"},
                                        {"TANBO_MAIL_FROM", "tanbo@example.org"},
                                        {"TANBO_PUBLIC_URL", "http://localhost:8080/tanbo"}}}));
  CHECK(env.mail_command == "msmtp -t");
  CHECK(env.public_url == "http://localhost:8080/tanbo");
  CHECK_THAT(error_of(parse({"--mail-command", "msmtp -t"})),
             Catch::Contains("--mail-command needs --mail-from and --public-url"));
  CHECK_THAT(error_of(parse({"--mail-command", "   "})), Catch::Contains("--mail-command:"));
  CHECK_THAT(error_of(parse({"--mail-from", "nobody"})), Catch::Contains("--mail-from:"));
  CHECK_THAT(error_of(parse({"--mail-from", "a@b.org\nBcc: c@d.org"})),
             Catch::Contains("--mail-from:"));
  CHECK_THAT(error_of(parse({"--public-url", "play.example.org"})),
             Catch::Contains("--public-url:"));
  CHECK_THAT(error_of(parse({"--public-url", "https://play.example.org/#x"})),
             Catch::Contains("--public-url:"));
  CHECK_THAT(error_of(parse({"--mail-timeout", "0"})), Catch::Contains("--mail-timeout:"));
  for (const char* s : {"--mail-command", "TANBO_MAIL_COMMAND", "--mail-from", "TANBO_MAIL_FROM",
                        "--public-url", "TANBO_PUBLIC_URL", "--mail-timeout"})
    CHECK_THAT(usage(), Catch::Contains(s));
}
