// The messages between nodes (server/cluster/messages.hpp): every kind as it crosses, and what a
// receiver refuses.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "server/cluster/messages.hpp"

using namespace tanbo_server::server::cluster;
using nlohmann::json;
using tanbo_server::protocol::Channel;
using tanbo_server::server::CloseCode;

namespace messages_test {

// One of each kind, every optional member set in one and absent in another.
std::vector<Message> samples() {
  return {
      Request{"n1", 7, "id-1", "Ann", "ann", {"id-2", "id-3"}, 1'700'000'000'000, 12},
      Request{"n1", 8, "id-4", "Guest 4", "", {}, 0, std::nullopt},
      Request{"n1", 9, "id-5", "Olga", "", {}, 0, std::nullopt, 2},
      Request{"n2", 9, "id-6", "Rob", "rob", {}, 0, std::nullopt, 2, true, false},
      Request{"n2", 9, "id-7", "Una", "una", {}, 0, std::nullopt, 1, false, true},
      Frame{{3, 4, 5}, std::nullopt},
      Frame{{3}, 17},
      Close{9, CloseCode::policy_error},
      Bye{"n2", 9},
      Credit{10},
      ChatCredit{11},
      Followed{12},
      Sync{},
      Reset{"n3"},
      Paired{13, "seek-1", "room-1", 1},
      Unsay{"room-2", Channel::spectators, 42},
      StandingChanged{"id-5", true, 1'800'000'000'000},
      Revoked{"id-6", "hash"},
      Revoked{"id-7", ""},
      ToIdentity{"id-8", true, "", 0},
      ToIdentity{"id-9", false, "n2", 14},
  };
}

// The head as it crosses: dumped, then parsed by the receiver.
json across(const Message& m) { return json::parse(encode(m).dump()); }

}  // namespace messages_test

using namespace messages_test;

TEST_CASE("every kind of message between nodes decodes as it was encoded", "[cluster][relay]") {
  std::set<std::size_t> kinds;
  for (const auto& m : samples()) {
    kinds.insert(m.index());
    auto d = decode(across(m));
    INFO(encode(m).dump());
    CHECK(d.refusal.empty());
    REQUIRE(d.message);
    CHECK(*d.message == m);
  }
  CHECK(kinds.size() == std::variant_size_v<Message>);
}

TEST_CASE("the heads cross as the nodes of the cluster read them", "[cluster][relay]") {
  CHECK(encode(Request{"n1", 7, "i", "Ann", "ann", {"m"}, 5, 12}) == json{{"k", "req"},
                                                                          {"from", "n1"},
                                                                          {"peer", 7},
                                                                          {"id", "i"},
                                                                          {"name", "Ann"},
                                                                          {"username", "ann"},
                                                                          {"mutes", {"m"}},
                                                                          {"shadow_until", 5},
                                                                          {"ticket", 12},
                                                                          {"protocol", 1}});
  CHECK(encode(Frame{{3, 4}, std::nullopt}) == json{{"k", "frame"}, {"peers", {3, 4}}});
  CHECK(encode(Frame{{3}, 17}) == json{{"k", "frame"}, {"peers", json::array({3})}, {"split", 17}});
  CHECK(encode(Close{9, CloseCode::going_away}) ==
        json{{"k", "close"}, {"peer", 9}, {"code", 1001}});
  CHECK(encode(Bye{"n2", 9}) == json{{"k", "bye"}, {"from", "n2"}, {"peer", 9}});
  CHECK(encode(Credit{10}) == json{{"k", "credit"}, {"peer", 10}});
  CHECK(encode(ChatCredit{11}) == json{{"k", "chat_credit"}, {"peer", 11}});
  CHECK(encode(Followed{12}) == json{{"k", "followed"}, {"ticket", 12}});
  CHECK(encode(Sync{}) == json{{"k", "sync"}});
  CHECK(encode(Reset{"n3"}) == json{{"k", "reset"}, {"from", "n3"}});
  CHECK(encode(Paired{13, "s", "r", 1}) ==
        json{{"k", "paired"}, {"peer", 13}, {"seek", "s"}, {"room", "r"}, {"seat", 1}});
  CHECK(encode(Unsay{"r", Channel::players, 42}) ==
        json{{"k", "unsay"}, {"room", "r"}, {"channel", "players"}, {"n", 42}});
  CHECK(encode(StandingChanged{"i", true, 8}) ==
        json{{"k", "standing"}, {"identity", "i"}, {"banned", true}, {"shadow_until", 8}});
  CHECK(encode(Revoked{"i", "h"}) == json{{"k", "revoked"}, {"identity", "i"}, {"token", "h"}});
  CHECK(encode(ToIdentity{"i", true, "n2", 14}) == json{{"k", "to_identity"},
                                                        {"identity", "i"},
                                                        {"open_only", true},
                                                        {"except_node", "n2"},
                                                        {"except_peer", 14}});
}

TEST_CASE("a message of an unknown kind, or without one, is refused with the reason",
          "[cluster][relay]") {
  auto unknown = decode(json{{"k", "teleport"}, {"peer", 1}});
  CHECK_FALSE(unknown.message);
  CHECK(unknown.refusal == "no message has kind \"teleport\"");
  auto none = decode(json{{"peer", 1}});
  CHECK_FALSE(none.message);
  CHECK(none.refusal.find("no kind") != std::string::npos);
  CHECK_FALSE(decode(json{{"k", 3}}).message);
  CHECK_FALSE(decode(json::array({"k", "sync"})).message);
}

TEST_CASE("a message with a member missing or malformed is refused, naming it",
          "[cluster][relay]") {
  struct Case {
    json head;
    std::string member;
  };
  const std::vector<Case> cases{
      {{{"k", "credit"}}, "peer"},
      {{{"k", "credit"}, {"peer", "7"}}, "peer"},
      {{{"k", "credit"}, {"peer", -7}}, "peer"},
      {{{"k", "close"}, {"peer", 1}, {"code", 70000}}, "code"},
      {{{"k", "frame"}, {"peers", {1, "two"}}}, "peers"},
      {{{"k", "frame"}, {"peers", {1}}, {"split", -1}}, "split"},
      {{{"k", "req"}, {"from", "n1"}, {"peer", 1}, {"id", "i"}}, "name"},
      {{{"k", "req"}, {"from", "n1"}, {"peer", 1}, {"id", "i"}, {"name", "A"}, {"mutes", "x"}},
       "mutes"},
      {{{"k", "req"}, {"from", 4}, {"peer", 1}, {"id", "i"}, {"name", "A"}}, "from"},
      {{{"k", "paired"}, {"peer", 1}, {"seek", "s"}, {"room", "r"}, {"seat", 1.5}}, "seat"},
      {{{"k", "unsay"}, {"room", "r"}, {"channel", "lobby"}, {"n", 1}}, "channel"},
      {{{"k", "standing"}, {"identity", "i"}, {"banned", "yes"}}, "banned"},
      {{{"k", "revoked"}, {"token", "h"}}, "identity"},
      {{{"k", "followed"}, {"ticket", nullptr}}, "ticket"},
  };
  for (const auto& c : cases) {
    auto d = decode(json::parse(c.head.dump()));  // as the receiver reads it
    INFO(c.head.dump() << ": " << d.refusal);
    CHECK_FALSE(d.message);
    CHECK(d.refusal.find("\"" + c.member + "\"") != std::string::npos);
    CHECK(d.refusal.find(c.head.at("k").get<std::string>()) != std::string::npos);
  }
}

TEST_CASE("a payload is a head's line and a body kept verbatim", "[cluster][relay]") {
  const std::string body = "{\"type\":\"move\"}\nsecond line";
  auto text = payload(encode(Frame{{1}, std::nullopt}), body);
  auto parts = split_payload(text);
  REQUIRE(parts);
  CHECK(parts->body == body);
  CHECK(decode(parts->head).message == Message(Frame{{1}, std::nullopt}));
  CHECK(payload(encode(Sync{})) == "{\"k\":\"sync\"}\n");
  CHECK_FALSE(split_payload("{\"k\":\"sync\"}"));  // no line
  CHECK_FALSE(split_payload("[1]\nbody"));         // not an object
  CHECK_FALSE(split_payload("{\"k\":\nbody"));     // not JSON
}
