#pragma once
// Bots and personal access tokens in the store (docs/bots-write.md), written once for both
// databases over Store::query: an account becomes a bot, a person plays bots or not, and an
// account's named tokens. The tokens are rows of `tokens` with a name (schema 14); only their
// SHA-256 is kept, as for a session's.
#include <cstdint>
#include <string_view>
#include <vector>

#include "server/store/store.hpp"

namespace tanbo_server::server::store {

struct BotRows {
  // The account of `identity` becomes a bot: not_found when it holds no account, invalid when
  // it has played a rated game (then nothing changes). A bot already: ok.
  static WriteResult make_bot(Store& s, std::string_view identity);
  static WriteResult set_play_bots(Store& s, std::string_view identity, bool on);
  // A personal access token named `name`, made `at`: not_found for an unknown identity.
  static WriteResult add_access_token(Store& s, std::string_view identity,
                                      std::string_view token_hash, std::string_view name,
                                      std::int64_t at);
  // The identity's access tokens, the newest first.
  static std::vector<Token> access_tokens(Store& s, std::string_view identity);
};

}  // namespace tanbo_server::server::store
