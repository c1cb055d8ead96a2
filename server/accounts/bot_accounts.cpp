// Bots and personal access tokens (docs/bots-write.md): the store's jobs of the account's own
// requests, each answered once its writes are committed. A token is logged by its id and name,
// never itself.
#include <spdlog/spdlog.h>

#include "protocol/text.hpp"
#include "server/accounts/jobs.hpp"
#include "server/store/bot_rows.hpp"

namespace tanbo_server::server::accounts {

using namespace jobs;

namespace {

constexpr std::size_t kTokenIdChars = 16;
constexpr std::size_t kMaxTokenNameChars = 40;
constexpr std::size_t kMaxAccessTokens = 20;  // per account

Answer guest() { return refused(Refusal::no_account, "a guest has no account: claim one first"); }

Answer listed(store::Store& s, const std::string& id) {
  Answer a;
  for (const auto& t : store::BotRows::access_tokens(s, id))
    a.access_tokens.push_back(
        {t.hash.substr(0, kTokenIdChars), t.name, t.created_at, t.last_used_at});
  if (auto i = s.identity_by_id(id)) {
    a.bot = i->bot;
    a.play_bots = i->play_bots;
  }
  return a;
}

bool good_name(const std::string& name) {
  const auto n = protocol::code_points(name);
  if (n < 1 || n > kMaxTokenNameChars) return false;
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return false;
  return true;
}

}  // namespace

void Accounts::make_bot(const Identity& who, Done done) {
  if (who.username.empty()) return done(guest());
  in_store(shared_, done, [id = who.id, done](Shared& sh, store::Store& s) {
    auto r = store::BotRows::make_bot(s, id);
    if (r.code == store::WriteResult::Code::not_found) return done(guest());
    if (r.code == store::WriteResult::Code::invalid)
      return done(refused(Refusal::already_rated,
                          "this account has played a rated game: it cannot become a bot"));
    require(r);
    Answer a = listed(s, id);
    sh.identities->note_bot_flags(id, a.bot, a.play_bots);
    once_committed(s, std::move(a), done, [id] { spdlog::info("accounts: {} is a bot now", id); });
  });
}

void Accounts::set_play_bots(const Identity& who, bool on, Done done) {
  if (who.username.empty()) return done(guest());
  in_store(shared_, done, [id = who.id, on, done](Shared& sh, store::Store& s) {
    require(store::BotRows::set_play_bots(s, id, on));
    Answer a = listed(s, id);
    sh.identities->note_bot_flags(id, a.bot, a.play_bots);
    once_committed(s, std::move(a), done);
  });
}

void Accounts::create_access_token(const Identity& who, std::string name, Done done) {
  if (who.username.empty()) return done(guest());
  if (!good_name(name))
    return done(refused(Refusal::bad_token_name,
                        "field \"name\": 1 to 40 characters, none of them a control"));
  in_store(shared_, done, [id = who.id, name, done](Shared& sh, store::Store& s) {
    if (store::BotRows::access_tokens(s, id).size() >= kMaxAccessTokens)
      return done(refused(Refusal::bad_token_name,
                          "an account holds 20 access tokens at most: revoke one first"));
    std::string token = sh.identities->issue_access_token_in(s, id, name);
    if (token.empty()) return done(unavailable());
    Answer a = listed(s, id);
    a.token = token;
    const std::string token_id = token_hash(token).substr(0, kTokenIdChars);
    once_committed(s, std::move(a), done, [id, token_id, name] {
      spdlog::info("accounts: {} made the access token {} ({})", id, token_id, name);
    });
  });
}

void Accounts::access_tokens(const Identity& who, Done done) {
  if (who.username.empty()) return done(guest());
  in_store(shared_, done, [id = who.id, done](Shared&, store::Store& s) {
    once_committed(s, listed(s, id), done);
  });
}

void Accounts::revoke_access_token(const Identity& who, std::string token_id, Done done) {
  if (who.username.empty()) return done(guest());
  in_store(shared_, done, [id = who.id, token_id, done](Shared& sh, store::Store& s) {
    std::string hash;
    if (token_id.size() == kTokenIdChars)
      for (const auto& t : store::BotRows::access_tokens(s, id))
        if (t.hash.starts_with(token_id)) hash = t.hash;
    if (hash.empty()) return done(refused(Refusal::no_such_token, "no access token " + token_id));
    require(s.remove_token(hash));
    sh.identities->end_session(id, hash);  // out of this node's memory too
    Answer a = listed(s, id);
    a.revoked_hash = hash;
    once_committed(s, std::move(a), done, [id, token_id] {
      spdlog::info("accounts: {} revoked the access token {}", id, token_id);
    });
  });
}

}  // namespace tanbo_server::server::accounts
