#pragma once
// tanbo-server's start and stop, step by step, in the order main.cpp takes them. A step that
// refuses logs why and answers the process's exit code: 2 for a setting refused as a bad flag
// would be, 1 for anything else; 0 when it went through.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "server/config.hpp"

namespace tanbo_server::server {
class RoomService;
class Server;
class StoreIdentities;
namespace store {
class StoreWorker;
}
namespace mail {
class Mailer;
}
namespace cluster {
class Member;
}
}  // namespace tanbo_server::server

namespace tanbo_server::server::startup {

// What the steps build, each its part.
struct Parts {
  Parts();
  ~Parts();
  Parts(const Parts&) = delete;
  Parts& operator=(const Parts&) = delete;

  std::optional<std::string> admin_token;  // --admin-token-file's
  std::shared_ptr<store::StoreWorker> store;
  std::string store_name;  // the database as the logs name it, without a password
  std::shared_ptr<StoreIdentities> identities;
  std::shared_ptr<mail::Mailer> mailer;  // null: no mail is sent
  std::shared_ptr<RoomService> rooms;
  std::unique_ptr<cluster::Member> cluster;  // null: alone
};

using Step = int (*)(const Config& config, Parts& parts);

void setup_logging(const Config& config);
// Raises the limit on open descriptors and fits --max-http-connections in it: the limit now
// (0: unknown).
std::size_t fit_descriptors(Config& config);

// Before the store is opened: a token file others may write is refused.
int read_admin_token(const Config& config, Parts& parts);
// The data directory, then the store: PostgreSQL or a SQLite file (by default tanbo.db in the
// data directory), refused when unreadable or written by a newer server.
int open_store(const Config& config, Parts& parts);
// Identities, accounts, mail and the rooms, over the store.
int make_rooms(const Config& config, Parts& parts);
// --cluster: this node joins before recovery, so the rooms recovery brings back are claimed.
int join_cluster(const Config& config, Parts& parts);
// The rooms the store holds, rebuilt before anyone connects.
int recover_rooms(const Config& config, Parts& parts);

// The server's hooks into the rooms and the store, then the listening socket, then the
// cluster's threads and listing.
int listen(const Config& config, Parts& parts, Server& server);

// After SIGINT or SIGTERM, within the 5 s allowed: the connections close once the rooms have
// sent what they accepted, the rooms drain into the store, the mail in flight is sent, and a
// cluster's other nodes take the rooms over.
void stop(Parts& parts, Server& server);

}  // namespace tanbo_server::server::startup
