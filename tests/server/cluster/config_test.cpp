#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <tuple>

#include "server/cluster/redis.hpp"
#include "server/config.hpp"

using namespace tanbo_server::server;

namespace {

ParseOutcome parse_cluster(std::vector<std::string_view> args,
                           std::map<std::string, std::string> env = {}) {
  return parse_config(args, [&](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional(it->second);
  });
}

}  // namespace

TEST_CASE("the cluster flag takes redis://HOST[:PORT] and nothing else", "[cluster][config]") {
  using Row = std::tuple<std::string, std::optional<cluster::RedisAddress>>;
  auto [url, expected] = GENERATE(table<std::string, std::optional<cluster::RedisAddress>>({
      Row{"redis://127.0.0.1:6380", cluster::RedisAddress{"127.0.0.1", 6380}},
      Row{"redis://redis", cluster::RedisAddress{"redis", 6379}},
      Row{"redis://[::1]:7000", cluster::RedisAddress{"::1", 7000}},
      Row{"redis://[::1]", cluster::RedisAddress{"::1", 6379}},
      Row{"rediss://host:6379", std::nullopt},
      Row{"redis://", std::nullopt},
      Row{"redis://host:", std::nullopt},
      Row{"redis://host:0", std::nullopt},
      Row{"redis://host:65536", std::nullopt},
      Row{"redis://host:6379/0", std::nullopt},
      Row{"redis://:secret@host", std::nullopt},
      Row{"redis://::1:6379", std::nullopt},
      Row{"redis://[::1", std::nullopt},
  }));
  CAPTURE(url);
  std::string error;
  auto parsed = cluster::parse_redis_url(url, error);
  CHECK(parsed == expected);
  CHECK(error.empty() == expected.has_value());
  auto outcome = parse_cluster({"--cluster", url});
  CHECK(std::holds_alternative<Config>(outcome) == expected.has_value());
  if (auto* e = std::get_if<ConfigError>(&outcome)) CHECK(e->message.starts_with("--cluster: "));
}

TEST_CASE("the cluster settings: defaults, environment and limits", "[cluster][config]") {
  SECTION("without --cluster nothing is set") {
    auto c = std::get<Config>(parse_cluster({}));
    CHECK(c.cluster.empty());
    CHECK(c.node_id.empty());
    CHECK(c.cluster_lease_ms == 5000);
  }
  SECTION("from the environment; a flag wins") {
    auto c = std::get<Config>(
        parse_cluster({"--node-id", "flag-node"}, {{"TANBO_CLUSTER", "redis://r:1"},
                                                   {"TANBO_NODE_ID", "env-node"},
                                                   {"TANBO_CLUSTER_LEASE_MS", "900"}}));
    CHECK(c.cluster == "redis://r:1");
    CHECK(c.node_id == "flag-node");
    CHECK(c.cluster_lease_ms == 900);
  }
  SECTION("a node id is one word") {
    CHECK(std::holds_alternative<ConfigError>(
        parse_cluster({"--cluster", "redis://r", "--node-id", "a b"})));
    CHECK(std::holds_alternative<ConfigError>(
        parse_cluster({"--cluster", "redis://r", "--node-id", "a:b"})));
    CHECK(std::holds_alternative<Config>(
        parse_cluster({"--cluster", "redis://r", "--node-id", "eu-1.a_b"})));
  }
  SECTION("the lease has bounds") {
    CHECK(std::holds_alternative<ConfigError>(
        parse_cluster({"--cluster", "redis://r", "--cluster-lease-ms", "100"})));
    CHECK(std::holds_alternative<Config>(
        parse_cluster({"--cluster", "redis://r", "--cluster-lease-ms", "300"})));
  }
  SECTION("--node-id and --cluster-lease-ms need --cluster") {
    CHECK(std::holds_alternative<ConfigError>(parse_cluster({"--node-id", "a"})));
    CHECK(std::holds_alternative<ConfigError>(parse_cluster({"--cluster-lease-ms", "2000"})));
  }
  SECTION("--help names the three") {
    for (auto flag : {"--cluster URL", "--node-id ID", "--cluster-lease-ms MS"})
      CHECK(usage().find(flag) != std::string::npos);
  }
}
