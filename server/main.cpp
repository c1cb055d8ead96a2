// tanbo-server: flags, logging, wiring, signals.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <unistd.h>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "server/accounts/passwords.hpp"
#include "server/cluster/node.hpp"
#include "server/cluster/redis_seeks.hpp"
#include "server/cluster/relay.hpp"
#include "server/config.hpp"
#include "server/identity/store_identities.hpp"
#include "server/mail/mailer.hpp"
#include "server/net/descriptors.hpp"
#include "server/net/probe.hpp"
#include "server/pairing/ratings.hpp"
#include "server/private_files.hpp"
#include "server/rooms/recovery.hpp"
#include "server/rooms/service.hpp"
#include "server/rooms/store_journal.hpp"
#include "server/server.hpp"
#include "server/store/worker.hpp"
#include "server/version.hpp"

namespace {

using namespace tanbo::server;

// SIGTERM to exit must fit in 5 s; this leaves room for the rest of the teardown.
constexpr auto kSettleGrace = std::chrono::milliseconds(1000);  // store writes in flight
constexpr auto kShutdownGrace = std::chrono::seconds(2);        // connections closing

// Where the other nodes' clients would reach this one: the bound address, or the host's name when
// bound to every interface.
std::string advertised_address(const Config& config, std::uint16_t port) {
  std::string host = config.bind;
  if (host == "0.0.0.0" || host == "::") {
    char name[256] = {};
    host = ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
  } else if (host.find(':') != std::string::npos) {
    host = "[" + host + "]";
  }
  return host + ":" + std::to_string(port);
}

// --cluster: the node exists before recovery, so the rooms recovery brings back are claimed as
// new ones are.
std::unique_ptr<cluster::Node> cluster_node(const Config& config, const RoomService& rooms) {
  if (config.cluster.empty()) return nullptr;
  std::string error;
  cluster::NodeOptions o;
  o.redis = *cluster::parse_redis_url(config.cluster, error);  // parse_config checked it
  o.id = config.node_id.empty() ? cluster::random_node_id() : config.node_id;
  o.lease = std::chrono::milliseconds(config.cluster_lease_ms);
  return std::make_unique<cluster::Node>(std::move(o), rooms.shared_lobby());
}

// Logs a check's warnings; false, with its refusal logged, when the server must not start.
bool passes(const FileCheck& check) {
  for (const auto& w : check.warnings) spdlog::warn("{}", w);
  if (check.refusal) spdlog::critical("{}", *check.refusal);
  return !check.refusal;
}

// The token is the file's first line; one too short to resist guessing is refused.
std::optional<std::string> read_admin_token(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) return std::nullopt;
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  if (token.size() < 16) return std::nullopt;
  return token;
}

void setup_logging(const Config& config) {
  auto logger = spdlog::stderr_color_mt("tanbo");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ %v");
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::flush_on(spdlog::level::info);
}

int run(Config config) {
  setup_logging(config);
  auto descriptors = plan_descriptors(config.max_connections, config.max_http);
  for (const auto& w : descriptors.warnings) spdlog::warn("{}", w);
  config.max_http = descriptors.max_http;

  // Before the store is opened: a token file others may write is refused (exit 2, as a bad flag).
  std::optional<std::string> admin_token;
  if (!config.admin_token_file.empty()) {
    if (!passes(check_admin_token_file(config.admin_token_file))) return 2;
    admin_token = read_admin_token(config.admin_token_file);
    if (!admin_token) {
      spdlog::critical("--admin-token-file {}: unreadable, or shorter than 16 characters",
                       config.admin_token_file);
      return 1;
    }
  }
  if (!passes(make_data_dir(config.data_dir))) return 1;

  // --store: PostgreSQL or another SQLite file; by default tanbo.db in the data dir.
  const std::string store_url =
      config.store.empty() ? (config.data_dir / "tanbo.db").string() : config.store;
  std::string store_error;
  auto store = store::Store::open_url(
      store_url, config.durability == "full" ? store::Durability::full : store::Durability::normal,
      store_error);
  if (!store) {  // unreadable, or written by a newer server: refuse rather than guess
    spdlog::critical("cannot open the store: {}", store_error);  // it names the database
    return 1;
  }
  const std::string db_path = store->describe();  // without a password
  // A SQLite file others may read is said once (PostgreSQL keeps its own files).
  if (std::string_view file = store_url; !file.starts_with("postgres")) {
    if (file.starts_with("sqlite:")) file.remove_prefix(7);
    passes(check_database_file(std::string(file)));
  }
  auto store_worker = std::make_shared<store::StoreWorker>(
      std::move(store), [](std::string line) { spdlog::error("{}", line); });

  // Installed before the threads start, so an early signal is not fatal.
  boost::asio::io_context signal_ioc;
  boost::asio::signal_set signals(signal_ioc, SIGINT, SIGTERM);

  // Identities and rooms live in the store; recovery rebuilds the rooms before anyone connects.
  auto options = service_options(config);
  std::shared_ptr<StoreIdentities> identities;
  try {
    identities = std::make_shared<StoreIdentities>(store_worker, !config.cluster.empty(),
                                                   SessionExpiry{config.session_expiry * 1000});
  } catch (const std::exception& e) {
    spdlog::critical("cannot read the identities from {}: {}", db_path, e.what());
    return 1;
  }
  options.identities = identities;
  if (auto n = accounts::load_common_passwords(config.common_passwords))
    spdlog::info("accounts: {} common passwords from {} are refused", *n, config.common_passwords);
  else
    spdlog::warn(
        "accounts: cannot read the common passwords in {} (install john-data, or set "
        "--common-passwords): only the built-in list is refused",
        config.common_passwords);
  options.accounts = std::make_shared<accounts::Accounts>(
      store_worker, identities,
      accounts::Rules{.lockout = std::chrono::seconds(config.login_lockout),
                      .hashing_queue = config.login_queue});
  std::shared_ptr<mail::Mailer> mailer;
  if (!config.mail_command.empty()) {
    auto command = *mail::command_words(config.mail_command);
    if (command[0].find('/') != std::string::npos && access(command[0].c_str(), X_OK) != 0) {
      spdlog::critical("--mail-command: {} is not a program this server may run", command[0]);
      return 1;
    }
    mailer = std::make_shared<mail::Mailer>(
        mail::Settings{command, config.mail_from, std::chrono::seconds(config.mail_timeout)});
    options.accounts->use_mail(mailer, config.public_url);
    spdlog::info("mail: sent by {} from {}, its links to {}", command[0], config.mail_from,
                 config.public_url);
  }
  options.journal = std::make_shared<StoreJournal>(store_worker);
  options.rating = pairing::store_rating(store_worker);
  auto rooms = std::make_shared<RoomService>(options);
  auto node = cluster_node(config, *rooms);
  std::shared_ptr<cluster::Relay> relay;
  ClaimRoom claim;
  if (node) {
    std::string error;
    if (!node->connect(error)) {
      spdlog::critical("cannot join the cluster: {}", error);
      return 1;
    }
    relay = std::make_shared<cluster::Relay>(*cluster::parse_redis_url(config.cluster, error),
                                             node->id(), cluster::RedisTimeouts{}, rooms,
                                             rooms->shared_lobby());
    rooms->set_forwarder(relay);
    // Weak: the relay holds the rooms already.
    rooms->set_remote({
        .unsay =
            [weak = std::weak_ptr(relay)](const std::string& room, tanbo::protocol::Channel channel,
                                          std::int64_t n) {
              if (auto relay = weak.lock())
                relay->notify(Forwarder::Target::room, room, cluster::Unsay{room, channel, n});
            },
        .standing_changed =
            [weak = std::weak_ptr(relay)](const std::string& identity, bool banned,
                                          std::int64_t shadow_until) {
              if (auto relay = weak.lock())
                relay->notify(Forwarder::Target::identity, identity,
                              cluster::StandingChanged{identity, banned, shadow_until});
            },
        // Every node: an identity may be connected to several.
        .revoked =
            [weak = std::weak_ptr(relay)](const std::string& identity, const std::string& token) {
              if (auto relay = weak.lock()) relay->notify_all(cluster::Revoked{identity, token});
            },
    });
    // Play now: one pool for the cluster, in Redis; this node runs the waves of the pools whose
    // lease it holds.
    rooms->use_seeks(std::make_unique<cluster::RedisSeeks>(
                         *cluster::parse_redis_url(config.cluster, error), node->id(),
                         std::chrono::milliseconds(config.cluster_lease_ms)),
                     node->id());
    node->on_takeover({
        .adopt =
            [store_worker, rooms, identities](const std::string& room) {
              try {
                return recover_room(*store_worker, *rooms, *identities, room);
              } catch (const std::exception& e) {
                spdlog::error("cluster: room {} not taken over: {}", room, e.what());
                return false;
              }
            },
        .gone = [relay](const std::string& n) { relay->node_gone(n); },
    });
    claim = [n = node.get()](const std::string& room) { return n->claim_at_start(room); };
  }
  try {
    recover_rooms(*store_worker, *rooms, *identities, claim);
  } catch (const std::exception& e) {
    spdlog::critical("cannot read the rooms from {}: {}", db_path, e.what());
    return 1;
  }
  Server server(config, rooms);
  server.use_store(store_worker);
  if (admin_token) server.use_admin_token(*admin_token);
  server.before_store_stops([rooms] { rooms->shutdown(); });
  // An action accepted as the stop began is stored and its state sent before the close frames.
  server.before_connections_close([rooms] {
    if (auto left = rooms->settle(kSettleGrace))
      spdlog::warn("{} rooms had store writes unfinished at the stop", left);
  });
  try {
    server.start();
  } catch (const boost::system::system_error& e) {
    spdlog::critical("cannot listen: {}", e.what());
    return 1;
  }
  if (relay) relay->start();
  if (node) {
    std::string error;
    if (!node->start(advertised_address(config, server.port()), error)) {
      spdlog::critical("cannot join the cluster: {}", error);
      return 1;
    }
  }
  spdlog::info("tanbo-server {} listening on {}:{} ({} threads, data in {}, {} descriptors)",
               version(), config.bind, server.port(), config.threads, config.data_dir.string(),
               descriptors.limit ? std::to_string(descriptors.limit) : "unlimited");

  int signo = 0;
  signals.async_wait([&](const boost::system::error_code&, int s) { signo = s; });
  signal_ioc.run();

  spdlog::info("{} received: stopping", signo == SIGINT ? "SIGINT" : "SIGTERM");
  // A room taken over from now on would arm its timers while the room threads are being joined.
  if (node) node->stop_taking_over();
  if (relay) relay->stop_receiving();  // the other nodes' requests wait for the rooms' next node
  if (auto left = server.stop(kShutdownGrace))
    spdlog::warn("{} connections did not close in time; dropped", left);
  rooms->shutdown();
  if (mailer) mailer->stop();  // the mail being sent finishes, within its timeout
  if (relay) {
    relay->stop();
    rooms->set_forwarder(nullptr);
  }
  // Its keys go now rather than when their leases expire: the other nodes take the rooms over
  // from the store at once (everything is committed by now).
  if (node) node->leave();
  spdlog::info("shutdown complete");
  spdlog::shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto outcome = parse_config(argc, argv);
  if (auto* err = std::get_if<ConfigError>(&outcome)) {
    std::cerr << "tanbo-server: " << err->message << "\nTry 'tanbo-server --help'.\n";
    return 2;
  }
  if (std::holds_alternative<HelpRequested>(outcome)) return std::cout << usage(), 0;
  if (std::holds_alternative<VersionRequested>(outcome))
    return std::cout << "tanbo-server " << version() << "\n", 0;

  const auto& config = std::get<Config>(outcome);
  if (config.healthcheck) {
    std::string detail;
    bool ok = probe_healthz(config.bind, config.port, std::chrono::seconds(3), detail,
                            !config.tls_cert.empty());
    (ok ? std::cout : std::cerr) << detail << "\n";
    return ok ? 0 : 1;
  }
  return run(config);
}
