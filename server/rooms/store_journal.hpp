#pragma once
// The journal of the real server: each entry is one store transaction on the StoreWorker's
// thread, and `done(ok)` runs only after it committed (durable before visible). Entries of one
// room arrive one at a time (the room waits for each), and the worker runs jobs in order, so a
// room's writes land in the order it made them. A write the database fails (a full disk, a lost
// connection) is `unavailable`, which the room retries; the store's health, which /healthz shows,
// is degraded until a commit succeeds again. A write the store refuses as it stands is reported
// to the worker as a failed job.
#include <cstdint>
#include <memory>

#include "server/rooms/journal.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server {

namespace store {
class StoreWorker;
}

class StoreJournal final : public RoomJournal {
 public:
  explicit StoreJournal(std::shared_ptr<store::StoreWorker> worker);
  void append(JournalEntry entry, std::function<void(Appended)> done) override;

  // The write one entry makes, at time `now_ms` (ms since the Unix epoch). On the worker's thread.
  static store::WriteResult write(store::Store& store, const JournalEntry& e, std::int64_t now_ms);

 private:
  std::shared_ptr<store::StoreWorker> worker_;
};

}  // namespace tanbo_server::server
