#include "server/cluster/member.hpp"

#include <utility>

#include "server/cluster/messages.hpp"
#include "server/cluster/redis_seeks.hpp"
#include "server/cluster/relay.hpp"
#include "server/rooms/service.hpp"

namespace tanbo_server::server::cluster {
namespace {

// What the rooms here tell the other nodes. Weak: the relay holds the rooms already.
RoomService::Remote told_to_other_nodes(const std::shared_ptr<Relay>& relay) {
  std::weak_ptr<Relay> weak = relay;
  return {
      .unsay =
          [weak](const std::string& room, protocol::Channel channel, std::int64_t n) {
            if (auto r = weak.lock())
              r->notify(Forwarder::Target::room, room, Unsay{room, channel, n});
          },
      .standing_changed =
          [weak](const std::string& identity, bool banned, std::int64_t shadow_until) {
            if (auto r = weak.lock())
              r->notify(Forwarder::Target::identity, identity,
                        StandingChanged{identity, banned, shadow_until});
          },
      // Every node: an identity may be connected to several.
      .revoked =
          [weak](const std::string& identity, const std::string& token) {
            if (auto r = weak.lock()) r->notify_all(Revoked{identity, token});
          },
      .to_identity =
          [weak](const std::string& identity, const protocol::Frame& frame, bool open_only,
                 const WsPeer::Origin& except) {
            if (auto r = weak.lock())
              r->notify(Forwarder::Target::identity, identity,
                        ToIdentity{identity, open_only, except.node, except.peer}, frame);
          },
  };
}

}  // namespace

Member::Member(std::unique_ptr<Node> node, std::shared_ptr<RoomService> rooms)
    : node_(std::move(node)), rooms_(std::move(rooms)) {}

Member::~Member() = default;

std::unique_ptr<Member> Member::join(NodeOptions options, std::shared_ptr<RoomService> rooms,
                                     Adopt adopt, std::string& error) {
  const RedisAddress redis = options.redis;
  const RedisTimeouts timeouts = options.timeouts;
  const auto lease = options.lease;
  std::unique_ptr<Member> m(
      new Member(std::make_unique<Node>(std::move(options), rooms->shared_lobby()), rooms));
  if (!m->node_->connect(error)) return nullptr;
  const std::string& id = m->node_->id();
  m->relay_ = std::make_shared<Relay>(redis, id, timeouts, rooms, rooms->shared_lobby());
  rooms->set_forwarder(m->relay_);
  rooms->set_remote(told_to_other_nodes(m->relay_));
  // Play now: one pool for the cluster, in Redis; this node runs the waves of the pools whose
  // lease it holds.
  rooms->use_seeks(std::make_unique<RedisSeeks>(redis, id, lease), id);
  m->node_->on_takeover({
      .adopt = std::move(adopt),
      .gone = [relay = m->relay_](const std::string& n) { relay->node_gone(n); },
  });
  return m;
}

bool Member::claim(const std::string& room) { return node_->claim_at_start(room); }

bool Member::start(const std::string& address, std::string& error) {
  relay_->start();
  return node_->start(address, error);
}

void Member::stop_taking_work() {
  node_->stop_taking_over();
  relay_->stop_receiving();
}

void Member::leave() {
  relay_->stop();
  rooms_->set_forwarder(nullptr);
  node_->leave();
}

}  // namespace tanbo_server::server::cluster
