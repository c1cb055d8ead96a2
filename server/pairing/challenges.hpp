#pragma once
// Direct challenges (docs/protocol.md, "Challenges"): who is online here, who takes challenges,
// and the challenges not yet answered. Called from the connections' strands; behind one lock.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "protocol/client.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"

namespace tanbo_server::server {
class Client;
}

namespace tanbo_server::server::pairing {

struct OpenChallenge {
  std::string id;
  Identity from;
  std::weak_ptr<Client> challenger;
  std::string to;  // the challenged identity's id
  protocol::GameTerms terms;
};

class Challenges {
 public:
  // Presence: a connection of `identity` is here (and takes challenges unless `open` is false).
  void online(const std::string& identity, std::uint64_t peer, std::weak_ptr<Client> client);
  void offline(const std::string& identity, std::uint64_t peer);
  void set_open(const std::string& identity, std::uint64_t peer, bool open);

  enum class Reach { offline, refused, open };
  Reach reach(const std::string& identity) const;
  std::set<std::string> identities() const;  // every identity with a connection here
  // The connections of `identity` that take challenges.
  std::vector<std::shared_ptr<Client>> open_clients(const std::string& identity) const;
  // Every connection of `identity`.
  std::vector<std::shared_ptr<Client>> clients(const std::string& identity) const;

  std::string open(OpenChallenge c);  // its new id
  // The challenge, removed, when `who` may answer it (`as_target`) or withdraw it.
  std::optional<OpenChallenge> take(const std::string& id, const std::string& who, bool as_target);
  // Every open challenge `identity` sent from connection `peer`, removed (it went away).
  std::vector<OpenChallenge> take_from(const std::string& identity,
                                       const std::weak_ptr<Client>& challenger);

 private:
  struct Connection {
    std::weak_ptr<Client> client;
    bool open = true;
  };
  mutable std::mutex mutex_;
  std::map<std::string, std::map<std::uint64_t, Connection>> online_;  // identity -> peers
  std::map<std::string, OpenChallenge> open_;
};

}  // namespace tanbo_server::server::pairing
