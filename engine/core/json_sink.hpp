#pragma once
// A game's state and actions written value by value, either into a nlohmann tree (state_json()
// and action_json(): tests, records, tools, the referee's comparison of an action) or straight
// into text (the frame and its legal list at every step, which then build, write and free no
// tree: a tenth of a move's instructions in mancala-simple). One function of the game writes
// both, so they cannot differ; a game that has none gives its tree (the defaults of
// Game::write_state and Game::write_action).
//
// Members come in key order: nlohmann's objects sort their keys, and the text must be the tree's
// text byte for byte (the protocol tests compare them on every state of played games).
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo_server::engine {

class JsonSink {
 public:
  virtual ~JsonSink() = default;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  virtual void key(std::string_view k) = 0;
  virtual void number(std::int64_t n) = 0;
  virtual void boolean(bool b) = 0;
  virtual void null() = 0;
  virtual void string(std::string_view s) = 0;
  virtual void json(const Json& j) = 0;  // a whole value

  // value(x): the value as JSON has it. A bool is a boolean, any other integer a number.
  template <class T>
  void value(const T& v) {
    if constexpr (std::same_as<T, bool>)
      boolean(v);
    else if constexpr (std::integral<T>)
      number(std::int64_t(v));
    else if constexpr (std::same_as<T, std::nullptr_t>)
      null();
    else if constexpr (std::convertible_to<const T&, std::string_view>)
      string(v);
    else
      json(v);
  }
  template <class T>
  void member(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

  // The names to write (engine::Names): the current ones unless a sink is told otherwise.
  Names names() const { return names_; }
  void use_names(Names n) { names_ = n; }

 private:
  Names names_ = kCurrentNames;
};

// Builds the tree.
class JsonTree final : public JsonSink {
 public:
  void begin_object() override { open(Json::object()); }
  void end_object() override { close(); }
  void begin_array() override { open(Json::array()); }
  void end_array() override { close(); }
  void key(std::string_view k) override { key_ = k; }
  void number(std::int64_t n) override { put(n); }
  void boolean(bool b) override { put(b); }
  void null() override { put(nullptr); }
  void string(std::string_view s) override { put(s); }
  void json(const Json& j) override { put(j); }
  Json take() { return std::move(root_); }

 private:
  Json& put(Json v);  // into the open object (at the last key) or array; or the root
  void open(Json v) { open_.push_back(&put(std::move(v))); }
  void close() { open_.pop_back(); }
  Json root_;
  std::vector<Json*> open_;
  std::string_view key_;
};

// Writes the text, appended to a string: a comma before every value or key but the first of its
// container, a colon after each key. The text goes through a block on the stack and reaches the
// string when the block fills, at flush() and when the sink is destroyed: read the string only
// after one of those. A step writes a few dozen keys and numbers; one append each cost a third
// of the writing.
class JsonText final : public JsonSink {
 public:
  explicit JsonText(std::string& out) : out_(out) {}
  ~JsonText() override { flush(); }
  JsonText(const JsonText&) = delete;
  JsonText& operator=(const JsonText&) = delete;

  void begin_object() override { open('{'); }
  void end_object() override { close('}'); }
  void begin_array() override { open('['); }
  void end_array() override { close(']'); }
  void key(std::string_view k) override;
  void number(std::int64_t n) override;
  void boolean(bool b) override;
  void null() override;
  void string(std::string_view s) override;
  void json(const Json& j) override;
  // Only the text has these: a number past int64 (a room's version), and a value already
  // serialized (a part of a frame written once and reused), put as it is.
  void unsigned_number(std::uint64_t n);
  void serialized(std::string_view json_value);
  void flush() {
    out_.append(block_, used_);
    used_ = 0;
  }

 private:
  static constexpr std::size_t kBlock = 480;
  static constexpr std::size_t kShort = 128;  // the longest key or string written via the block

  // Room for n more bytes (n <= kBlock) at the end of the block, with the comma the value needs.
  char* room(std::size_t n) {
    if (n + 1 > kBlock - used_) flush();
    char* p = block_ + used_;
    if (comma_) *p++ = ',';
    comma_ = true;
    return p;
  }
  void done(char* end) { used_ = std::size_t(end - block_); }
  void open(char c) {
    char* p = room(1);
    *p++ = c;
    done(p);
    comma_ = false;
  }
  void close(char c) {
    put(c);
    comma_ = true;
  }
  // One byte after what was just written, without a comma.
  void put(char c) {
    if (used_ == kBlock) flush();
    block_[used_++] = c;
  }
  void quoted(std::string_view s);      // a string, through the block when short and plain
  void literal(std::string_view word);  // true, false, null
  // Long or escaped text: the block flushed, then appended to the string itself.
  void separate_in_string() {
    flush();
    if (comma_) out_ += ',';
    comma_ = true;
  }

  std::string& out_;
  std::size_t used_ = 0;
  bool comma_ = false;
  char block_[kBlock];
};

// The game's state and an action as trees, through write_state and write_action: what such a
// game's state_json() and action_json() return.
Json state_tree(const Game& g);
Json action_tree(const Game& g, Action a);
// The game's state as text through write_state, without a tree: serialize(g.state_json()) byte
// for byte. What a room puts in its frame at every step; `names`: the version's names.
std::string state_text(const Game& g, Names names = kCurrentNames);

}  // namespace tanbo_server::engine
