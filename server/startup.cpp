#include "server/startup.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <unistd.h>
#include <boost/system/system_error.hpp>
#include <chrono>
#include <fstream>
#include <string_view>
#include <utility>

#include "server/accounts/passwords.hpp"
#include "server/cluster/member.hpp"
#include "server/identity/store_identities.hpp"
#include "server/mail/mailer.hpp"
#include "server/net/descriptors.hpp"
#include "server/pairing/ratings.hpp"
#include "server/private_files.hpp"
#include "server/rooms/recovery.hpp"
#include "server/rooms/service.hpp"
#include "server/rooms/store_journal.hpp"
#include "server/server.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server::startup {
namespace {

// SIGTERM to exit must fit in 5 s; this leaves room for the rest of the teardown.
constexpr auto kSettleGrace = std::chrono::milliseconds(1000);  // store writes in flight
constexpr auto kShutdownGrace = std::chrono::seconds(2);        // connections closing

// Logs a check's warnings; false, with its refusal logged, when the server must not start.
bool passes(const FileCheck& check) {
  for (const auto& w : check.warnings) spdlog::warn("{}", w);
  if (check.refusal) spdlog::critical("{}", *check.refusal);
  return !check.refusal;
}

// The token is the file's first line; one too short to resist guessing is refused.
std::optional<std::string> first_line_as_token(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  if (!in || !std::getline(in, token)) return std::nullopt;
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ')) token.pop_back();
  if (token.size() < 16) return std::nullopt;
  return token;
}

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

void load_common_passwords(const Config& config) {
  if (auto n = accounts::load_common_passwords(config.common_passwords))
    spdlog::info("accounts: {} common passwords from {} are refused", *n, config.common_passwords);
  else
    spdlog::warn(
        "accounts: cannot read the common passwords in {} (install john-data, or set "
        "--common-passwords): only the built-in list is refused",
        config.common_passwords);
}

// --mail-command: a program this server may run, or a refusal.
int make_mailer(const Config& config, Parts& parts, accounts::Accounts& accounts) {
  if (config.mail_command.empty()) return 0;
  auto command = *mail::command_words(config.mail_command);
  if (command[0].find('/') != std::string::npos && access(command[0].c_str(), X_OK) != 0) {
    spdlog::critical("--mail-command: {} is not a program this server may run", command[0]);
    return 1;
  }
  parts.mailer = std::make_shared<mail::Mailer>(
      mail::Settings{command, config.mail_from, std::chrono::seconds(config.mail_timeout)});
  accounts.use_mail(parts.mailer, config.public_url);
  spdlog::info("mail: sent by {} from {}, its links to {}", command[0], config.mail_from,
               config.public_url);
  return 0;
}

}  // namespace

Parts::Parts() = default;
Parts::~Parts() = default;

void setup_logging(const Config& config) {
  auto logger = spdlog::stderr_color_mt("tanbo");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ %v");
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::flush_on(spdlog::level::info);
}

std::size_t fit_descriptors(Config& config) {
  auto descriptors = plan_descriptors(config.max_connections, config.max_http);
  for (const auto& w : descriptors.warnings) spdlog::warn("{}", w);
  config.max_http = descriptors.max_http;
  return descriptors.limit;
}

int read_admin_token(const Config& config, Parts& parts) {
  if (config.admin_token_file.empty()) return 0;
  if (!passes(check_admin_token_file(config.admin_token_file))) return 2;  // as a bad flag
  parts.admin_token = first_line_as_token(config.admin_token_file);
  if (!parts.admin_token) {
    spdlog::critical("--admin-token-file {}: unreadable, or shorter than 16 characters",
                     config.admin_token_file);
    return 1;
  }
  return 0;
}

int open_store(const Config& config, Parts& parts) {
  if (!passes(make_data_dir(config.data_dir))) return 1;
  const std::string url =
      config.store.empty() ? (config.data_dir / "tanbo.db").string() : config.store;
  std::string error;
  auto store = store::Store::open_url(
      url, config.durability == "full" ? store::Durability::full : store::Durability::normal,
      error);
  if (!store) {  // unreadable, or written by a newer server: refuse rather than guess
    spdlog::critical("cannot open the store: {}", error);  // it names the database
    return 1;
  }
  parts.store_name = store->describe();
  // A SQLite file others may read is said once (PostgreSQL keeps its own files).
  if (std::string_view file = url; !file.starts_with("postgres")) {
    if (file.starts_with("sqlite:")) file.remove_prefix(7);
    passes(check_database_file(std::string(file)));
  }
  parts.store = std::make_shared<store::StoreWorker>(
      std::move(store), [](std::string line) { spdlog::error("{}", line); });
  return 0;
}

int make_rooms(const Config& config, Parts& parts) {
  auto options = service_options(config);
  try {
    parts.identities = std::make_shared<StoreIdentities>(
        parts.store, !config.cluster.empty(), SessionExpiry{config.session_expiry * 1000});
  } catch (const std::exception& e) {
    spdlog::critical("cannot read the identities from {}: {}", parts.store_name, e.what());
    return 1;
  }
  options.identities = parts.identities;
  load_common_passwords(config);
  options.accounts = std::make_shared<accounts::Accounts>(
      parts.store, parts.identities,
      accounts::Rules{.lockout = std::chrono::seconds(config.login_lockout),
                      .hashing_queue = config.login_queue});
  if (int code = make_mailer(config, parts, *options.accounts)) return code;
  options.journal = std::make_shared<StoreJournal>(parts.store);
  options.rating = pairing::store_rating(parts.store);
  parts.rooms = std::make_shared<RoomService>(options);
  return 0;
}

int join_cluster(const Config& config, Parts& parts) {
  if (config.cluster.empty()) return 0;
  std::string error;
  cluster::NodeOptions o;
  o.redis = *cluster::parse_redis_url(config.cluster, error);  // parse_config checked it
  o.id = config.node_id.empty() ? cluster::random_node_id() : config.node_id;
  o.lease = std::chrono::milliseconds(config.cluster_lease_ms);
  auto adopt = [store = parts.store, rooms = parts.rooms,
                identities = parts.identities](const std::string& room) {
    try {
      return recover_room(*store, *rooms, *identities, room);
    } catch (const std::exception& e) {
      spdlog::error("cluster: room {} not taken over: {}", room, e.what());
      return false;
    }
  };
  parts.cluster = cluster::Member::join(std::move(o), parts.rooms, std::move(adopt), error);
  if (!parts.cluster) {
    spdlog::critical("cannot join the cluster: {}", error);
    return 1;
  }
  return 0;
}

int recover_rooms(const Config&, Parts& parts) {
  ClaimRoom claim;
  if (parts.cluster)
    claim = [member = parts.cluster.get()](const std::string& room) { return member->claim(room); };
  try {
    server::recover_rooms(*parts.store, *parts.rooms, *parts.identities, claim);
  } catch (const std::exception& e) {
    spdlog::critical("cannot read the rooms from {}: {}", parts.store_name, e.what());
    return 1;
  }
  return 0;
}

int listen(const Config& config, Parts& parts, Server& server) {
  server.use_store(parts.store);
  if (parts.admin_token) server.use_admin_token(*parts.admin_token);
  server.before_store_stops([rooms = parts.rooms] { rooms->shutdown(); });
  // An action accepted as the stop began is stored and its state sent before the close frames.
  server.before_connections_close([rooms = parts.rooms] {
    if (auto left = rooms->settle(kSettleGrace))
      spdlog::warn("{} rooms had store writes unfinished at the stop", left);
  });
  try {
    server.start();
  } catch (const boost::system::system_error& e) {
    spdlog::critical("cannot listen: {}", e.what());
    return 1;
  }
  std::string error;
  if (parts.cluster && !parts.cluster->start(advertised_address(config, server.port()), error)) {
    spdlog::critical("cannot join the cluster: {}", error);
    return 1;
  }
  return 0;
}

void stop(Parts& parts, Server& server) {
  if (parts.cluster) parts.cluster->stop_taking_work();
  if (auto left = server.stop(kShutdownGrace))
    spdlog::warn("{} connections did not close in time; dropped", left);
  parts.rooms->shutdown();
  if (parts.mailer) parts.mailer->stop();  // the mail being sent finishes, within its timeout
  // Everything is committed by now: the other nodes may take the rooms over from the store.
  if (parts.cluster) parts.cluster->leave();
}

}  // namespace tanbo_server::server::startup
