#pragma once
// The events of one step, written as JSON text while the game plays it:
// [{"type":"sow","seat":0,...},...]. The referee sends that text to every member as it is and
// builds no tree (building, writing and freeing one would cost a tenth of a move's
// instructions); json() parses it for tests and tools. Members come in the order the game
// writes them, "type" first. A type renamed since protocol version 1 (Renamed) is written with
// its current name, and text(Names::v1) gives the same text with the old one in its place.
#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "engine/core/json_sink.hpp"

namespace tanbo_server::engine {

// An event type and the name version 1 of the protocol gave it.
struct Renamed {
  std::string_view now, v1;
};

class Events {
 public:
  // add("sow", "seat", 1, "hole", 4): one event of that type, then keys and values alternating.
  // A value is what JsonSink::value takes, a std::optional (no member when empty), or a function
  // that writes the value into a JsonSink.
  template <class... Members>
  void add(std::string_view type, const Members&... members) {
    static_assert(sizeof...(members) % 2 == 0, "add() takes key, value pairs after the type");
    text_.pop_back();  // the array's ']'
    if (count_++) text_ += ',';
    {
      JsonText out(text_);
      out.begin_object();
      out.member("type", type);
      if constexpr (sizeof...(members) > 0) put(out, members...);
      out.end_object();
    }  // its last block written into text_
    text_ += ']';
  }

  // The same, for a type renamed since version 1: where its name lies is kept, so the text of
  // version 1 is that text with one splice per such event.
  template <class... Members>
  void add(Renamed type, const Members&... members) {
    constexpr std::string_view kHead = R"({"type":")";
    renames_.push_back({text_.size() - 1 + (count_ ? 1 : 0) + kHead.size(), type});
    add(type.now, members...);
  }

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  void clear() {
    text_.assign("[]");  // keeps its capacity for the next step
    count_ = 0;
    renames_.clear();
  }
  const std::string& text() const { return text_; }
  // The text with the names of `names`' version; same_in(names): it is text().
  std::string text(Names names) const;
  bool same_in(Names names) const { return names != Names::v1 || renames_.empty(); }
  Json json() const { return Json::parse(text_); }

 private:
  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};

  template <class Value, class... Rest>
  static void put(JsonText& out, std::string_view key, const Value& value, const Rest&... rest) {
    if constexpr (is_optional<Value>::value) {
      if (value) out.member(key, *value);
    } else if constexpr (std::invocable<const Value&, JsonSink&>) {
      out.key(key);
      value(static_cast<JsonSink&>(out));
    } else {
      out.member(key, value);
    }
    if constexpr (sizeof...(rest) > 0) put(out, rest...);
  }

  struct Rename {
    std::size_t at;  // where the current name starts in text_
    Renamed type;
  };
  std::string text_ = "[]";
  std::size_t count_ = 0;
  std::vector<Rename> renames_;
};

}  // namespace tanbo_server::engine
