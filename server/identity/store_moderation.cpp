// What moderation keeps of an identity (StoreIdentities, server/identity/store_identities.hpp):
// its standing (ban, shadow mute, mutes) held in memory and written through the store, and the
// reports players make.
#include <spdlog/spdlog.h>

#include <exception>
#include <future>
#include <memory>

#include "server/identity/store_identities.hpp"
#include "server/identity/store_writes.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

using store_writes::require;

Standing StoreIdentities::standing(const std::string& id) const {
  if (shared_) {  // another node may have changed it: read it again
    auto answer = std::make_shared<std::promise<store::Standing>>();
    auto got = answer->get_future();
    if (worker_->post([answer, id](store::Store& s) {
          try {
            answer->set_value(s.standing(id));
          } catch (...) {
            answer->set_exception(std::current_exception());
          }
        })) {
      try {
        auto st = got.get();
        Standing out{st.banned, st.shadow_until, std::move(st.mutes)};
        std::lock_guard lock(mutex_);
        return standing_[id] = std::move(out);
      } catch (const std::exception& e) {
        spdlog::warn("identities: standing of {} not read, the last known kept: {}", id, e.what());
      }
    }
  }
  std::lock_guard lock(mutex_);
  auto it = standing_.find(id);
  return it == standing_.end() ? Standing{} : it->second;
}

void StoreIdentities::set_mute(const std::string& id, const std::string& muted, bool on) {
  {
    std::lock_guard lock(mutex_);
    apply_mute(standing_[id].mutes, muted, on);
  }
  worker_->post([id, muted, on](store::Store& s) { require(s.set_mute(id, muted, on), "mute"); });
}

void StoreIdentities::report(const std::string& reporter, const std::string& player,
                             const std::string& room, const std::string& reason) {
  worker_->post([=, at = wall_ms()](store::Store& s) {
    require(s.add_report(reporter, player, room, reason, at), "report");
  });
}

void StoreIdentities::set_shadow_mute(const std::string& id, std::int64_t until) {
  {
    std::lock_guard lock(mutex_);
    standing_[id].shadow_until = until;
  }
  worker_->post(
      [id, until](store::Store& s) { require(s.set_shadow_mute(id, until), "shadow mute"); });
}

void StoreIdentities::set_ban(const std::string& id, bool banned) {
  {
    std::lock_guard lock(mutex_);
    standing_[id].banned = banned;
  }
  worker_->post([id, banned, at = wall_ms()](store::Store& s) {
    require(s.set_ban(id, banned ? at : 0), "ban");
  });
}

}  // namespace tanbo_server::server
