#pragma once
// The store: every room, action, game record, identity and rating, behind one interface with two
// databases: SQLite (SqliteStore, one file, the default) and PostgreSQL (PgStore, --store
// postgresql://...). Both keep the same schema, migrated the same way (schema.cpp).
//
// Durability contract: a write is visible to the world only after its transaction committed. A
// committed write survives a crash of the process at any moment (SQLite: WAL, synchronous=NORMAL;
// PostgreSQL: its own WAL); with Durability::full SQLite also survives a power loss or an
// operating system crash (each commit is fsynced; PostgreSQL follows its server's settings).
// Outside a group a write returns only after its own transaction committed; inside a group (the
// StoreWorker's group commit) it returns before the group's COMMIT, so whatever announces it (a
// room's broadcast, R2: the record is what is stored and recovered) goes through after_commit,
// which runs only once that COMMIT returned.
//
// Writes never throw: they answer a WriteResult; a database failure (disk full, I/O error) is
// `failed`, rolls the transaction back and clears healthy(). Reads throw StoreError only when the
// database itself fails; "no such thing" is an empty answer. A Store is not thread-safe: one
// owner at a time, in the server the StoreWorker's thread.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/record.hpp"
#include "server/store/elo.hpp"
#include "server/store/names.hpp"
#include "server/store/rows.hpp"

namespace tanbo_server::server::store {

using Json = engine::Json;
using Seat = engine::Seat;
using Log = std::function<void(std::string)>;

enum class Durability : std::uint8_t { normal, full };

struct StoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a write did; codes are stable, the message is for logs.
struct [[nodiscard]] WriteResult {
  enum class Code : std::uint8_t {
    ok,
    duplicate,  // the key exists already (an action version, a room id, an identity)
    not_found,  // no such room, game or identity
    invalid,    // refused as it stands: bad JSON shape, a finished game, a bad name
    failed,     // the database failed; nothing was written
    fenced,     // another node took the room over: the writer's epoch is not the room's
  };
  Code code = Code::ok;
  std::string message;

  bool ok() const { return code == Code::ok; }
  explicit operator bool() const { return ok(); }
};
std::string_view to_string(WriteResult::Code c);

// The options a game was created with: the room's, with `first` as that game had it.
Json game_options(const Json& room_options, Seat first, bool first_drawn);
// A game's public id: "<room>-<game_no>".
std::string game_id(std::string_view room, int game_no);
// The SQL condition, on `games g`, of a current game load_unfinished loads: unfinished, or
// finished at or after `finished_since`.
std::string live_game_sql(std::optional<std::int64_t> finished_since);

namespace detail {
struct Current;
}

class Store {
 public:
  // The SQLite file at `path` (see SqliteStore::open). Null with `error` set when it cannot.
  static std::unique_ptr<Store> open(const std::filesystem::path& path, Durability durability,
                                     std::string& error);
  // By URL: "postgresql://..." or "postgres://..." opens PostgreSQL (migrating it as SQLite is);
  // "sqlite:PATH" or a bare PATH opens that SQLite file.
  static std::unique_ptr<Store> open_url(std::string_view url, Durability durability,
                                         std::string& error);
  virtual ~Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // False once a write failed in the database (not for refused input): /healthz "degraded";
  // true again once a transaction commits with no failure inside it (the database came back).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }
  // The last failure of the database, for the log line that says an outage began.
  const std::string& last_failure() const { return last_failure_; }
  // What the store is, for logs: the file, or the URL without its password.
  virtual std::string describe() const = 0;

  // --- Group commit: one transaction around the writes of many jobs. ---

  // Opens a group: until end_group each write is a SAVEPOINT of one transaction, so a write
  // refused or failed rolls back only itself, and reads see the group's earlier writes. False
  // (no group) when the transaction cannot begin: writes then commit one by one.
  virtual bool begin_group() = 0;
  // Commits the group. False with `error` set when the COMMIT failed or the transaction was lost
  // to a failure inside it: nothing of the group was written, and healthy() turns false.
  virtual bool end_group(std::string& error) = 0;
  // After an end_group that returned false: true when the COMMIT was sent and its answer lost
  // with the connection, so the group may have been written after all.
  virtual bool in_doubt() const { return false; }
  // Whether the group left in doubt was committed, once the database can say (it is reachable
  // again); nullopt while it cannot.
  virtual std::optional<bool> resolve_doubt() { return false; }
  // Set by the worker while it runs jobs outside a group (none could begin, or a doubt waits):
  // a store whose COMMIT's answer can be lost then refuses their writes as failed, since such a
  // COMMIT could not be asked about afterwards; their rooms hold the change and write it again.
  virtual void refuse_lone_writes(bool) {}
  // f(committed) runs once what the current job wrote is durable: at once outside a group, after
  // the group's COMMIT inside one (false when it was not committed).
  void after_commit(std::function<void(bool committed)> f);
  // The group's held answers, for the worker to run after end_group.
  std::vector<std::function<void(bool)>> take_after_commit();
  bool in_group() const { return grouped_; }

  // --- Rooms and games (rooms.cpp): each call is one transaction (one savepoint inside a
  // group). ---

  // The room with its seats and its game 1 (row.game_no is ignored: a room starts at game 1;
  // row.first_drawn is taken from row.options.first).
  WriteResult create_room(const RoomRow& row);
  // player empty: the seat is free.
  WriteResult set_seat(std::string_view room, Seat seat, std::string_view player);
  // One accepted action of the room's current, unfinished game. Versions number a room's
  // actions across its games; a version already logged is `duplicate`.
  // `clocks`: a game clock's remaining ms per seat after it (null: the room has no game clock).
  // `at`: when the room took it, which its deadlines count from (0: now).
  // `by`: why the server's computer chose it for the seat (`takeover`, `timer`, `cpu`, as the
  // action's event says); empty for a person's own decision.
  WriteResult append_action(std::string_view room, int game_no, std::int64_t version, Seat seat,
                            const Json& action, const Json& clocks = nullptr, std::int64_t at = 0,
                            std::string_view by = {});
  // Starts game `game_no` (the current one + 1, which must be finished) with a fresh seed.
  // first_drawn: as in RoomRow. started_at 0: now.
  WriteResult start_rematch(std::string_view room, int game_no, std::string_view seed_hex,
                            std::string_view commit, Seat first, bool first_drawn = false,
                            std::int64_t started_at = 0);
  // Ends the current game: result is {places: [players ints], reason: string, takeover?: [seats]}
  // (`takeover`: the seats whose last decision the computer made for their absent player). The
  // seats are kept with the record; in a ranked room whose seats all hold distinct identities the
  // Elo ratings (M7) change in the same transaction, a seat in `takeover` rated as the last
  // (docs/rules.md, "Results"). `ratings`, when given, gets what the result did to them: per
  // seat {before, after} rounded, or null for every seat when the game was not rated.
  WriteResult finish_game(std::string_view room, int game_no, const Json& result,
                          std::int64_t finished_at, Json* ratings = nullptr);
  WriteResult set_timer(std::string_view room, const Json& timer);
  // A waiting room everyone left: kept with its seats, never loaded by load_unfinished again.
  WriteResult abandon_room(std::string_view room, std::int64_t at);

  // --- Fencing: in a database several nodes share, each room is written by one node at a time. ---

  // Whether a room's writes must prove their epoch: a database several nodes share.
  virtual bool shared() const { return false; }
  // A node takes room `room` (over): its epoch rises by one, and `epoch` gets the new one. Inside
  // a group the row stays locked until the commit, so a load in the same group sees every write
  // the room's last owner committed, and that owner writes nothing more.
  WriteResult take_room(std::string_view room, std::int64_t& epoch);
  // `fenced` when the room's epoch is no longer `epoch`; inside a group the row stays locked for
  // the group (no take_room meanwhile), so the group's writes of the room are that epoch's.
  WriteResult check_epoch(std::string_view room, std::int64_t epoch);

  // Every room whose current game is unfinished and that was not abandoned; with
  // `finished_since` (ms since the epoch) also those whose current game finished at or after it
  // (a room still within its retention). A room that cannot be read (bad JSON, a value out of
  // range, an unknown game, a bad seed) is reported through `log` and skipped.
  std::vector<LoadedRoom> load_unfinished(
      const Log& log, std::optional<std::int64_t> finished_since = std::nullopt);
  // Room `id` as load_unfinished would load it: nullopt when it is finished (before
  // `finished_since`), abandoned, unknown, or cannot be read (reported through `log` as
  // load_unfinished does). A cluster node taking over one room of a node that died reads it so.
  std::optional<LoadedRoom> load_room(std::string_view id, const Log& log,
                                      std::optional<std::int64_t> finished_since = std::nullopt);

  // --- Records (games.cpp) ---

  // The record of game `id` ("<room>-<game_no>") in the `tanbo-engine replay` format plus
  // {id, room, game_no, status, players_info, result, started_at, finished_at, commit, ranked}.
  // A game still playing has no `seed` (R1).
  std::optional<Json> game_record(std::string_view id);
  // Finished games, newest first: {games: [summary], next: cursor or null}. `before` is the
  // `next` of the previous page, or a finished_at in ms (games finished strictly before it).
  Json list_games(const std::optional<std::string>& player, const std::optional<std::string>& game,
                  int limit, const std::optional<std::string>& before);

  // --- Identities and their tokens (written once for both databases: identities.cpp). Only a
  // token's hash is ever stored; an identity holds one token per device that logged in. ---

  // A new identity with its first token, made `at` by the client `agent`.
  WriteResult create_identity(std::string_view id, std::string_view name,
                              std::string_view token_hash, std::int64_t at = 0,
                              std::string_view agent = {});
  std::optional<Identity> identity_by_token_hash(std::string_view token_hash);
  std::optional<Token> token(std::string_view token_hash);
  // An identity's sessions' tokens (not its access tokens: bot_rows.hpp), the last used first.
  std::vector<Token> tokens_of(std::string_view identity);
  std::optional<Identity> identity_by_id(std::string_view id);
  // Every identity (the computer seats' included), for a server that keeps them in memory.
  void each_identity(const std::function<void(Identity)>& f);
  void each_token(const std::function<void(Token)>& f);
  WriteResult add_token(std::string_view identity, std::string_view token_hash, std::int64_t at,
                        std::string_view agent = {});
  // The token was used `at` (a no-op for a token no longer kept).
  WriteResult touch_token(std::string_view token_hash, std::int64_t at);
  // not_found when no such token is kept.
  WriteResult remove_token(std::string_view token_hash);
  // Every session's token of `identity` but `keep` (empty: every one); its access tokens stay.
  WriteResult remove_tokens(std::string_view identity, std::string_view keep);

  // --- Accounts (accounts.cpp) ---

  // duplicate when the username (compared by `username_key`) is taken or the identity already
  // has an account; not_found when there is no such identity.
  WriteResult create_account(const Account& account, std::string_view username_key);
  std::optional<Account> account_by_key(std::string_view username_key);
  std::optional<Account> account_of(std::string_view identity);
  // A login attempt for the account arriving at `at`, counted before its password is checked,
  // so that attempts sent together are counted one after the other, on every node alike. One
  // that comes before the account's next_attempt_at is not admitted and not counted; one that is
  // counts, and the account's next attempt may come `wait_after(attempts)` ms later. not_found
  // when there is no such account.
  WriteResult count_login_attempt(std::string_view identity, std::int64_t at,
                                  const std::function<std::int64_t(int attempts)>& wait_after,
                                  LoginTurn& turn);
  // The password was right: the count starts again.
  WriteResult note_login_success(std::string_view identity);
  // A new password, which starts the login count again (only its owner's device can set one).
  WriteResult set_password(std::string_view identity, std::string_view password_hash);
  // The hash of the account's one-time recovery code (empty: none); a new one replaces the last.
  WriteResult set_recovery(std::string_view identity, std::string_view recovery_hash);

  // --- Mail (mail.cpp): an account's confirmed address and the tokens sent to it. ---

  std::optional<Account> account_by_mail(std::string_view mail);
  // The account's confirmed address; empty removes it. duplicate when another account has it;
  // not_found when there is no such account.
  WriteResult set_mail(std::string_view identity, std::string_view mail);
  // Keeps a token sent by mail, unless the identity was sent `per_hour` tokens of its purpose in
  // the hour before it (used or not): then `invalid`, on every node alike (the account's row is
  // locked meanwhile, so that two nodes count one after the other). The rows made more than a
  // day before it go.
  WriteResult add_mail_token(const MailToken& token, int per_hour);
  // The token with `hash` and `purpose` if it is still good at `now`; it stays so.
  std::optional<MailToken> mail_token(std::string_view hash, std::string_view purpose,
                                      std::int64_t now);
  // The same, and it is no longer good after: a token works once. `found` stays empty for an
  // unknown, used or expired one.
  WriteResult take_mail_token(std::string_view hash, std::string_view purpose, std::int64_t now,
                              std::optional<MailToken>& found);
  // The address of the identity's newest `confirm` token still good at `now`.
  std::optional<std::string> pending_mail(std::string_view identity, std::int64_t now);
  // Ends the identity's unused tokens of `purpose` (empty: of every purpose).
  WriteResult end_mail_tokens(std::string_view identity, std::string_view purpose);

  // The identity's games stay, under the name "deleted player"; its account, tokens, ratings,
  // mutes and the reports it made go, and its chat lines are removed.
  WriteResult delete_identity(std::string_view identity, std::int64_t at);
  // What the server keeps of an identity: {identity, account, ratings, games, chat}.
  Json export_identity(std::string_view identity);

  // `name_keys`: the name's lookalike keys, kept with it when the identity holds an account.
  WriteResult set_name(std::string_view id, std::string_view name,
                       const std::vector<std::string>& name_keys = {});

  // --- The names accounts protect (name_skeletons.cpp): each account's username and its
  // holder's display name, by their lookalike keys (protocol/lookalike/), which the server
  // computes; a name someone else chooses may share none. ---

  // Replaces every key kept for `identity` (both empty: it protects nothing any more).
  WriteResult protect_names(std::string_view identity,
                            const std::vector<std::string>& username_keys,
                            const std::vector<std::string>& name_keys);
  // An identity other than `except` that protects one of `keys` (at most two); nullopt: none.
  std::optional<std::string> lookalike_holder(const std::vector<std::string>& keys,
                                              std::string_view except);
  // Every key kept: f(identity, kind, key), kind "username" or "name".
  void each_name_key(const std::function<void(std::string, std::string, std::string)>& f);
  // Gives an account the username and key its username has under today's name rule (the key
  // of a username claimed before names were kept in NFKC may differ); duplicate when another
  // account has that key already.
  WriteResult renormalize_username(std::string_view identity, std::string_view username,
                                   std::string_view username_key);

  // --- Chat and moderation (written once for both databases: chat.cpp) ---

  WriteResult append_chat(std::string_view room, int game_no, const ChatLine& line);
  // Marks the line removed (it stays numbered); not_found for no such line.
  WriteResult remove_chat(std::string_view room, std::string_view channel, std::int64_t n,
                          std::int64_t at);
  // The last `limit` lines of a channel not removed, oldest first, and the next line's number.
  std::pair<std::vector<ChatLine>, std::int64_t> chat_tail(std::string_view room,
                                                           std::string_view channel, int limit);
  // A game's lines of one channel not removed, oldest first.
  std::vector<ChatLine> game_chat(std::string_view room, int game_no, std::string_view channel);
  WriteResult set_mute(std::string_view identity, std::string_view muted, bool on);
  WriteResult add_report(std::string_view reporter, std::string_view player, std::string_view room,
                         std::string_view reason, std::int64_t at);
  // The newest reports first: [{seq, reporter, player, room, reason, at}].
  Json reports(int limit);
  // until 0: lifted.
  WriteResult set_shadow_mute(std::string_view identity, std::int64_t until);
  // at 0: lifted.
  WriteResult set_ban(std::string_view identity, std::int64_t at);
  Standing standing(std::string_view identity);
  // Every identity that is banned, shadow-muted or mutes someone (the others stand clean).
  std::map<std::string, Standing> standings();

  // --- Ratings (players.cpp) ---

  // Unrounded; kInitialRating when the identity has no rated game of `game`.
  double rating(std::string_view identity, std::string_view game);
  // {id, name, account (true, for an account holder), ratings: {game: {rating (rounded), games}},
  // recent: [summary]}.
  std::optional<Json> player(std::string_view id, int recent = 10);
  // [{rank, id, name, account (true, for an account holder), rating (rounded), games}], best
  // first.
  Json leaderboard(std::string_view game, int limit);

 protected:
  Store() = default;
  friend struct BotRows;  // bot_rows.hpp: bots and access tokens, written once over query()

  // --- What is written once for both databases: a statement runner. ---
  // A statement's parameters are $1, $2, ... numbered in the order they first appear. Each
  // database keeps what it prepared for a text and reuses it, so a value goes in a parameter,
  // never into the text.
  using SqlValue = std::variant<std::nullptr_t, std::int64_t, double, std::string>;
  using SqlRow = std::vector<SqlValue>;
  virtual std::vector<SqlRow> query(std::string_view sql, const std::vector<SqlValue>& params) = 0;
  // A write through query() that returns no rows: the rows it inserted, changed or deleted.
  std::int64_t execute(std::string_view sql, const std::vector<SqlValue>& params) {
    query(sql, params);
    return changes_;
  }
  // One write: a transaction (a savepoint inside a group); the database's refusals become the
  // WriteResult's codes, its failures `failed` (and healthy() false), as every write here does.
  virtual WriteResult transact(std::string_view what, const std::function<WriteResult()>& body) = 0;
  // The same for a body that writes with one statement at most: a database that undoes a
  // failed statement by itself (SQLite) needs no savepoint around it inside a group.
  virtual WriteResult transact_one(std::string_view what,
                                   const std::function<WriteResult()>& body) {
    return transact(what, body);
  }
  // One read: a database failure becomes StoreError naming `what`.
  virtual void reading(std::string_view what, const std::function<void()>& body) = 0;
  // What follows a text column in an ORDER BY so that both databases sort text by its bytes:
  // SQLite always does, PostgreSQL follows the database's locale unless told.
  virtual std::string bytewise() const = 0;
  // What follows a SELECT of one row so that no other transaction changes it until this one ends
  // (a database several nodes write: PostgreSQL's FOR SHARE; SQLite has one writer).
  virtual std::string row_lock() const { return ""; }

  static std::int64_t sql_int(const SqlValue& v);
  static double sql_real(const SqlValue& v);
  static std::string sql_text(const SqlValue& v);  // empty for NULL
  static Json sql_text_or_null(const SqlValue& v);
  static bool sql_null(const SqlValue& v) { return std::holds_alternative<std::nullptr_t>(v); }
  // NULL for an empty string (a free seat).
  static SqlValue or_null(std::string_view s);
  // A stored column that must hold what it says; anything else is a corrupt row, a StoreError
  // naming `where` and the column, never the caller's fault.
  static std::int64_t stored_int(const SqlValue& v, std::string_view where,
                                 std::string_view column);
  static Json stored_json(const SqlValue& v, std::string_view where, std::string_view column);

  // A write or a commit failed in the database: unhealthy until note_commit.
  void note_failure(std::string message) {
    healthy_.store(false, std::memory_order_relaxed);
    group_failed_ = grouped_;
    last_failure_ = std::move(message);
  }
  // A transaction committed: healthy again, unless it was a group a write failed in.
  void note_commit() {
    if (!std::exchange(group_failed_, false)) healthy_.store(true, std::memory_order_relaxed);
  }

  std::atomic<bool> healthy_{true};
  bool grouped_ = false;
  bool group_failed_ = false;  // a write of the open group failed in the database
  std::string last_failure_;
  std::int64_t changes_ = 0;  // rows the last query() changed, as the database counts them

 private:
  // The current game of `room`, as the writes check it (rooms.cpp).
  std::optional<detail::Current> current_game(std::string_view room);
  // The unfinished rooms, or only room `only`: load_unfinished and load_room (rooms.cpp).
  std::vector<LoadedRoom> load_rooms(const Log& log, std::optional<std::string_view> only,
                                     std::optional<std::int64_t> finished_since);
  // load_rooms' reads of one room (rooms.cpp): its row, its seats, its current game's actions, and
  // a finished game's result with its ratings; each throws StoreError on a row it cannot read.
  static LoadedRoom room_of(const SqlRow& q, const std::string& where);
  void load_seats(RoomRow& row, const std::string& where);
  void load_actions(LoadedRoom& loaded, const std::string& where);
  void load_result(LoadedRoom& loaded, const SqlRow& game, const std::string& where);
  // games.cpp: a game's seats with their names and ratings; the summaries of finished games'
  // rows (seq, room, game_no, game, players, ranked, started_at, finished_at, result).
  Json players_info(std::int64_t game_seq, bool finished, std::string_view room);
  Json summaries(const std::vector<SqlRow>& rows);

  std::vector<std::function<void(bool)>> after_commit_;
};

}  // namespace tanbo_server::server::store
