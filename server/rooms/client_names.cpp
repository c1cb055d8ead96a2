// The names a connection chooses (docs/protocol.md, "Names"): hello's display name, a claim's
// username. check_name made them well formed; here a name that looks like one the server gives
// is refused bad_name, and one that looks like an account's (its username, or its holder's
// display name) name_reserved, unless the account is the chooser's own.
#include <fmt/format.h>

#include "protocol/lookalike/lookalike.hpp"
#include "protocol/text.hpp"
#include "server/rooms/client.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

bool Client::not_reserved(std::string_view field, const std::string& name, const Id& re) {
  auto why = protocol::reserved_name(name);
  if (!why) return true;
  refuse(ErrorCode::bad_name, fmt::format("field \"{}\": {}", field, *why), re);
  return false;
}

void Client::refuse_lookalike(std::string_view field, const Id& re) {
  refuse(ErrorCode::name_reserved,
         fmt::format("field \"{}\": this name is an account's, or looks like one: choose another",
                     field),
         re);
}

bool Client::may_choose(std::string_view field, const std::string& name, const std::string& except,
                        const Id& re) {
  if (!not_reserved(field, name, re)) return false;
  if (!services_->identities->lookalike_holder(name, except)) return true;
  refuse_lookalike(field, re);
  return false;
}

bool Client::may_claim(const std::string& username, const Id& re) {
  auto checked = protocol::check_name(username);
  if (!checked.ok()) return true;  // the Accounts answer bad_name
  if (!not_reserved("username", checked.name, re)) return false;
  auto& ids = *services_->identities;
  if (auto holder = ids.lookalike_holder(checked.name, identity_->id)) {
    // The same username in another case is username_taken, as the Accounts answer it.
    auto other = ids.by_id(*holder);
    if (!other || protocol::fold_case(other->username) != protocol::fold_case(checked.name)) {
      refuse_lookalike("username", re);
      return false;
    }
  }
  // The display name is an account holder's from now on: it may not pass for another's.
  if (ids.lookalike_holder(identity_->name, identity_->id)) {
    refuse(ErrorCode::name_reserved,
           "your display name is an account's, or looks like one: change it, then claim", re);
    return false;
  }
  return true;
}

}  // namespace tanbo_server::server
