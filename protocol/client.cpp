#include "protocol/client.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "protocol/json_read.hpp"
#include "protocol/limits.hpp"
#include "protocol/text.hpp"

namespace tanbo_server::protocol {
namespace {

// Nesting depth of arrays and objects, strings skipped; stops counting past the limit. Run before
// the parser so a frame of 64 KiB brackets costs one linear scan, not a deep tree.
bool too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// Reads the fields of one message object; the first problem found is kept as the error.
class Reader {
 public:
  explicit Reader(const Json& obj) : obj_(obj) {}

  const std::string& error() const { return error_; }
  ErrorCode code() const { return code_; }

  // The value of key, or null when it is absent or given as null.
  const Json* find(const char* key) const {
    auto it = obj_.find(key);
    return it == obj_.end() || it->is_null() ? nullptr : &*it;
  }

  bool fail(const char* key, std::string_view problem) {
    if (error_.empty()) error_ = std::string("field \"") + key + "\": " + std::string(problem);
    return false;
  }

  bool text(const char* key, std::string& out, std::size_t min_chars, std::size_t max_chars) {
    const Json* v = find(key);
    if (!v) return fail(key, "missing");
    if (!v->is_string()) return fail(key, "expected a string");
    const auto& s = v->get_ref<const std::string&>();
    std::size_t n = code_points(s);
    if (n < min_chars || n > max_chars)
      return fail(key, "expected " + std::to_string(min_chars) + " to " +
                           std::to_string(max_chars) + " characters");
    out = s;
    return true;
  }

  bool text(const char* key, std::optional<std::string>& out, std::size_t min_chars,
            std::size_t max_chars) {
    if (!find(key)) return true;
    return text(key, out.emplace(), min_chars, max_chars);
  }

  // A problem with its own error code (bad_name, bad_text), when it is the first.
  bool fail_with(ErrorCode code, const char* key, std::string_view problem) {
    if (error_.empty()) code_ = code;
    return fail(key, problem);
  }

  // A display name, kept in NFKC; one that breaks the name rule is bad_name.
  bool name(const char* key, std::optional<std::string>& out) {
    const Json* v = find(key);
    if (!v) return true;
    if (!v->is_string()) return fail(key, "expected a string");
    auto check = check_name(v->get_ref<const std::string&>());
    if (!check.ok()) {
      if (error_.empty()) code_ = ErrorCode::bad_name;
      return fail(key, check.problem);
    }
    out = std::move(check.name);
    return true;
  }

  bool integer(const char* key, std::int64_t& out, std::int64_t lo, std::int64_t hi) {
    const Json* v = find(key);
    if (!v) return fail(key, "missing");
    std::int64_t x = 0;
    if (!as_int64(*v, x) || x < lo || x > hi)
      return fail(key,
                  "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    out = x;
    return true;
  }

  bool integer(const char* key, std::optional<int>& out, int lo, int hi) {
    if (!find(key)) return true;
    std::int64_t x = 0;
    if (!integer(key, x, lo, hi)) return false;
    out = int(x);
    return true;
  }

  bool version(const char* key, std::uint64_t& out) {
    const Json* v = find(key);
    if (!v) return fail(key, "missing");
    std::int64_t x = 0;
    if (v->is_number_unsigned())
      out = v->get<std::uint64_t>();
    else if (as_int64(*v, x) && x >= 0)
      out = std::uint64_t(x);
    else
      return fail(key, "expected a non-negative integer");
    return true;
  }

  bool boolean(const char* key, bool& out) {
    const Json* v = find(key);
    if (!v) return true;
    if (!v->is_boolean()) return fail(key, "expected true or false");
    out = v->get<bool>();
    return true;
  }

  static bool as_int64(const Json& v, std::int64_t& out) {
    if (v.is_number_unsigned()) {
      auto u = v.get<std::uint64_t>();
      if (u > std::uint64_t(std::numeric_limits<std::int64_t>::max())) return false;
      out = std::int64_t(u);
      return true;
    }
    if (!v.is_number_integer()) return false;
    out = v.get<std::int64_t>();
    return true;
  }

 private:
  const Json& obj_;
  std::string error_;
  ErrorCode code_ = ErrorCode::bad_message;
};

template <class E, std::size_t N>
std::optional<E> from_name(const std::array<std::string_view, N>& names, const Json& v) {
  if (!v.is_string()) return std::nullopt;
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == v.get_ref<const std::string&>()) return E(i);
  return std::nullopt;
}

constexpr std::array<std::string_view, 2> kRoles = {"player", "spectator"};
constexpr std::array<std::string_view, 3> kCpuLevels = {"random", "greedy", "mcts"};

// One read() per message: the field rules of docs/protocol.md.
bool read(Reader&, ListGames&) { return true; }
bool read(Reader&, WatchLobby&) { return true; }
bool read(Reader&, UnwatchLobby&) { return true; }
bool read(Reader&, Ping&) { return true; }
bool read(Reader&, MyGames&) { return true; }

bool read_login(Reader& r, Login& m) {
  return r.text("username", m.username, 1, kMaxUsernameChars) &&
         r.text("password", m.password, 1, kMaxPasswordWireChars) &&
         r.text("token", m.token, 1, kMaxTokenChars);
}

bool read(Reader& r, Hello& m) {
  if (!r.text("token", m.token, 1, kMaxTokenChars) || !r.name("name", m.name) ||
      !r.text("access_token", m.access_token, 1, kMaxTokenChars))
    return false;
  if (m.access_token && m.token) return r.fail("access_token", "give one token, not both");
  // Any integer: the Client answers a version it does not speak with a code of its own.
  constexpr int kAny = std::numeric_limits<int>::max();
  if (!r.integer("protocol", m.protocol, -kAny, kAny)) return false;
  const Json* login = r.find("login");
  if (!login) return true;
  if (m.access_token) return r.fail("login", "give an access token or a login, not both");
  if (!login->is_object()) return r.fail("login", "expected {username, password}");
  if (m.token) return r.fail("login", "give a token or a login, not both");
  Reader l(*login);
  if (!read_login(l, m.login.emplace())) return r.fail("login", l.error());
  return true;
}

bool read(Reader& r, Claim& m) {
  return r.text("username", m.username, 1, kMaxUsernameChars) &&
         r.text("password", m.password, 1, kMaxPasswordWireChars);
}
bool read(Reader&, BecomeBot&) { return true; }
bool read(Reader& r, Logout& m) { return r.boolean("everywhere", m.everywhere); }
bool read(Reader& r, ChangePassword& m) {
  return r.text("current", m.current, 1, kMaxPasswordWireChars) &&
         r.text("password", m.password, 1, kMaxPasswordWireChars);
}

bool read(Reader& r, ListRooms& m) { return r.text("game", m.game, 1, kMaxGameChars); }

bool read_room(Reader& r, std::string& room) { return r.text("room", room, 1, kMaxRoomChars); }
bool read(Reader& r, Resign& m) { return read_room(r, m.room); }
bool read(Reader& r, Rematch& m) { return read_room(r, m.room); }
bool read(Reader& r, Leave& m) { return read_room(r, m.room); }
bool read(Reader& r, Resume& m) {
  if (!read_room(r, m.room) || !r.version("version", m.version)) return false;
  const Json* chat = r.find("chat");
  if (!chat) return true;
  if (!chat->is_object()) return r.fail("chat", "expected {players?, spectators?}");
  Reader c(*chat);
  std::int64_t n = 0;
  if (c.find("players")) {
    if (!c.integer("players", n, 0, std::numeric_limits<std::int64_t>::max()))
      return r.fail("chat", c.error());
    m.chat_players = n;
  }
  if (c.find("spectators")) {
    if (!c.integer("spectators", n, 0, std::numeric_limits<std::int64_t>::max()))
      return r.fail("chat", c.error());
    m.chat_spectators = n;
  }
  return true;
}

constexpr std::array<std::string_view, 2> kChannels = {"players", "spectators"};

bool read(Reader& r, Say& m) {
  if (!read_room(r, m.room)) return false;
  const Json* channel = r.find("channel");
  if (!channel) return r.fail("channel", "missing");
  auto ch = from_name<Channel>(kChannels, *channel);
  if (!ch) return r.fail("channel", "expected \"players\" or \"spectators\"");
  m.channel = *ch;
  const Json* text = r.find("text");
  const Json* phrase = r.find("phrase");
  if (!text == !phrase) return r.fail("text", "give a text or a phrase, not both");
  if (phrase) {
    if (!phrase->is_string() || std::find(kPhrases.begin(), kPhrases.end(),
                                          phrase->get_ref<const std::string&>()) == kPhrases.end())
      return r.fail("phrase",
                    "expected one of hello, good_game, thanks, good_luck, well_played, oops");
    m.phrase = phrase->get<std::string>();
    return true;
  }
  if (!text->is_string()) return r.fail("text", "expected a string");
  auto check = check_chat(text->get_ref<const std::string&>());
  if (!check.ok()) return r.fail_with(ErrorCode::bad_text, "text", check.problem);
  m.text = std::move(check.name);
  return true;
}

bool read(Reader& r, Mute& m) { return r.text("player", m.player, 1, kMaxIdChars); }
bool read(Reader& r, Unmute& m) { return r.text("player", m.player, 1, kMaxIdChars); }
bool read(Reader& r, Report& m) {
  return r.text("player", m.player, 1, kMaxIdChars) && r.text("room", m.room, 1, kMaxRoomChars) &&
         r.text("reason", m.reason, 1, kMaxReasonChars);
}
bool read(Reader& r, SpectatorChat& m) {
  if (!read_room(r, m.room)) return false;
  if (!r.find("open")) return r.fail("open", "missing");
  return r.boolean("open", m.open);
}

bool read(Reader& r, Act& m) {
  if (!read_room(r, m.room) || !r.version("version", m.version)) return false;
  const Json* a = r.find("action");
  if (!a) return r.fail("action", "missing");
  m.action = *a;
  return true;
}

bool read(Reader& r, Join& m) {
  if (!read_room(r, m.room)) return false;
  const Json* as = r.find("as");
  if (!as) return r.fail("as", "missing");
  auto role = from_name<Role>(kRoles, *as);
  if (!role) return r.fail("as", "expected \"player\" or \"spectator\"");
  m.as = *role;
  std::optional<int> seat;
  if (!r.integer("seat", seat, 0, kMaxSeats - 1)) return false;
  m.seat = seat;
  return true;
}

bool read(Reader& r, FillCpu& m) {
  if (!read_room(r, m.room)) return false;
  const Json* level = r.find("level");
  if (!level) return r.fail("level", "missing");
  auto lv = from_name<CpuLevel>(kCpuLevels, *level);
  if (!lv) return r.fail("level", "expected \"random\", \"greedy\" or \"mcts\"");
  m.level = *lv;
  return true;
}

bool read_cpu(Reader& r, const Json& list, std::vector<CpuSeat>& out) {
  if (!list.is_array()) return r.fail("cpu", "expected an array of {seat, level}");
  if (list.size() > std::size_t(kMaxSeats)) return r.fail("cpu", "too many entries");
  for (const Json& e : list) {
    if (!e.is_object()) return r.fail("cpu", "expected an array of {seat, level}");
    Reader er(e);
    std::int64_t seat = 0;
    if (!er.integer("seat", seat, 0, kMaxSeats - 1)) return r.fail("cpu", er.error());
    const Json* level = er.find("level");
    auto lv = level ? from_name<CpuLevel>(kCpuLevels, *level) : std::nullopt;
    if (!lv) return r.fail("cpu", "field \"level\": expected \"random\", \"greedy\" or \"mcts\"");
    if (std::any_of(out.begin(), out.end(), [&](const CpuSeat& c) { return c.seat == seat; }))
      return r.fail("cpu", "seat " + std::to_string(seat) + " given twice");
    out.push_back({Seat(seat), *lv});
  }
  return true;
}

bool read_options(Reader& r, Json& options) {
  if (const Json* o = r.find("options")) {
    if (!o->is_object()) return r.fail("options", "expected an object");
    options = *o;
  }
  return true;
}

bool read_timer(Reader& r, TimeControl& timer) {
  if (const Json* t = r.find("timer")) {
    std::string why;
    auto tc = read_time_control(*t, why);
    if (!tc) return r.fail("timer", why);
    timer = *tc;
  }
  return true;
}

// game, players, options, timer, ranked: what seek and challenge share.
bool read_terms(Reader& r, GameTerms& t) {
  return r.text("game", t.game, 1, kMaxGameChars) && read_options(r, t.options) &&
         r.integer("players", t.players, 1, kMaxSeats) && read_timer(r, t.timer) &&
         r.boolean("ranked", t.ranked);
}

bool read(Reader& r, Seek& m) {
  if (!read_terms(r, m.terms) || !r.boolean("bots", m.terms.bots) ||
      !r.integer("cpu_after", m.cpu_after, 1, kMaxCpuAfterSeconds))
    return false;
  if (const Json* level = r.find("level")) {
    auto lv = from_name<CpuLevel>(kCpuLevels, *level);
    if (!lv) return r.fail("level", "expected \"random\", \"greedy\" or \"mcts\"");
    m.level = *lv;
  }
  return true;
}

bool read(Reader& r, Unseek& m) { return r.text("seek", m.seek, 1, kMaxTicketChars); }
bool read(Reader& r, Challenge& m) {
  return r.text("player", m.player, 1, kMaxIdChars) && read_terms(r, m.terms);
}
bool read(Reader& r, Accept& m) { return r.text("challenge", m.challenge, 1, kMaxTicketChars); }
bool read(Reader& r, Decline& m) { return r.text("challenge", m.challenge, 1, kMaxTicketChars); }
bool read(Reader& r, Cancel& m) { return r.text("challenge", m.challenge, 1, kMaxTicketChars); }
bool read(Reader& r, Challenges& m) {
  if (!r.find("open")) return r.fail("open", "missing");
  return r.boolean("open", m.open);
}

bool read(Reader& r, Create& m) {
  if (!r.text("game", m.game, 1, kMaxGameChars) || !read_options(r, m.options)) return false;
  if (!r.integer("players", m.players, 1, kMaxSeats) ||
      !r.integer("seats", m.v1_seats, 1, kMaxSeats))
    return false;
  if (!r.boolean("ranked", m.ranked)) return false;
  if (!read_timer(r, m.timer) || !r.boolean("spectator_chat", m.spectator_chat)) return false;
  if (const Json* c = r.find("cpu"); c && !read_cpu(r, *c, m.cpu)) return false;
  if (const Json* s = r.find("setup")) m.setup = *s;
  return true;
}

template <class M>
bool read_into(Reader& r, ClientMessage& out) {
  M m;
  if (!read(r, m)) return false;
  out = std::move(m);
  return true;
}

struct Kind {
  std::string_view type;
  bool (*read)(Reader&, ClientMessage&);
};

template <class... M>
constexpr auto make_kinds(std::variant<M...>*) {
  return std::array<Kind, sizeof...(M)>{Kind{M::kType, &read_into<M>}...};
}
constexpr auto kKinds = make_kinds(static_cast<ClientMessage*>(nullptr));

Error error(ErrorCode code, std::string message, Id re = {}) {
  return Error{code, std::move(message), std::move(re), {}};
}

Parsed parse_object(const Json& j) {
  if (!j.is_object()) return error(ErrorCode::bad_message, "a message is a JSON object");
  Id id;
  if (auto it = j.find("id"); it != j.end() && !it->is_null()) {
    std::int64_t i = 0;
    if (it->is_string() && code_points(it->get_ref<const std::string&>()) <= kMaxIdChars)
      id = it->get<std::string>();
    else if (Reader::as_int64(*it, i))
      id = i;
    else
      return error(ErrorCode::bad_message, "field \"id\": expected an integer or a short string");
  }
  auto type = j.find("type");
  if (type == j.end() || !type->is_string())
    return error(ErrorCode::bad_message, "field \"type\": missing or not a string", id);
  const auto& name = type->get_ref<const std::string&>();
  auto kind =
      std::find_if(kKinds.begin(), kKinds.end(), [&](const Kind& k) { return k.type == name; });
  if (kind == kKinds.end())
    return error(ErrorCode::unknown_type, "no message has type \"" + name + "\"", id);
  Reader r(j);
  Request req{id, {}};
  if (!kind->read(r, req.message)) return error(r.code(), r.error(), id);
  return req;
}

}  // namespace

std::string_view to_string(Role r) { return kRoles[std::size_t(r)]; }
std::string_view to_string(Channel c) { return kChannels[std::size_t(c)]; }
std::string_view to_string(CpuLevel l) { return kCpuLevels[std::size_t(l)]; }

Parsed parse_json(const Json& j) noexcept {
  try {
    return parse_object(j);
  } catch (const std::exception& e) {  // allocation failure; nothing else throws here
    return error(ErrorCode::internal, e.what());
  }
}

Parsed parse(std::string_view frame) noexcept {
  try {
    if (frame.size() > kMaxFrameBytes)
      return error(ErrorCode::too_large,
                   "frames are limited to " + std::to_string(kMaxFrameBytes) + " bytes");
    if (too_deep(frame))
      return error(ErrorCode::bad_json,
                   "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    // Invalid JSON, invalid UTF-8 and number overflow all come back discarded, never thrown.
    Json j = json_read::read(frame);
    if (j.is_discarded()) return error(ErrorCode::bad_json, "not valid JSON text in UTF-8");
    return parse_object(j);
  } catch (const std::exception& e) {
    return error(ErrorCode::internal, e.what());
  }
}

std::vector<std::string_view> client_types() {
  std::vector<std::string_view> out;
  for (const auto& k : kKinds) out.push_back(k.type);
  return out;
}

std::string_view type_of(const ClientMessage& m) {
  return std::visit([](const auto& x) -> std::string_view { return x.kType; }, m);
}

}  // namespace tanbo_server::protocol
