#pragma once
// How many WebSockets each client address holds, so that one address cannot take every place
// --max-connections leaves: an upgrade beyond its address's share is refused (429). A place is
// held from the upgrade until the session ends, and given back by an AddressPlace going out of
// scope or released, whichever comes first, so no path (refused, failed handshake, dropped) can
// leak one.
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tanbo_server::server {

class AddressCounts;

// One place of one address; empty for an address that is never limited (loopback).
class AddressPlace {
 public:
  AddressPlace() = default;
  AddressPlace(AddressPlace&& other) noexcept;
  AddressPlace& operator=(AddressPlace&& other) noexcept;
  AddressPlace(const AddressPlace&) = delete;
  AddressPlace& operator=(const AddressPlace&) = delete;
  ~AddressPlace() { release(); }

  // Gives the place back now; later calls do nothing.
  void release();

 private:
  friend class AddressCounts;
  AddressPlace(AddressCounts* counts, std::string key) : counts_(counts), key_(std::move(key)) {}

  AddressCounts* counts_ = nullptr;  // outlives the place: both belong to the NetContext
  std::string key_;
};

class AddressCounts {
 public:
  // A place for `key` (address.hpp's limit_key), or nullopt when it holds `max` already. An empty
  // key is never counted.
  std::optional<AddressPlace> take(const std::string& key, std::size_t max);
  // The places `key` holds now.
  std::size_t held(const std::string& key) const;

 private:
  friend class AddressPlace;
  void give_back(const std::string& key);

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::size_t> held_;  // only keys holding at least one place
};

}  // namespace tanbo_server::server
