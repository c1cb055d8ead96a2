#pragma once
// Sends mail through a sendmail-compatible command (docs/operations.md, "Mail"): the message on
// the command's stdin, as msmtp, postfix, exim and nullmailer read it with `-t -i`. One thread of
// its own runs the commands one at a time, off every network, room and store thread; a request
// only queues its mail. The queue is bounded (a mail beyond it is dropped), a command that has not
// ended after the timeout is killed; every outcome is logged and counted (tanbo_mail_total).
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "server/mail/message.hpp"

namespace tanbo_server::server::mail {

struct Settings {
  std::vector<std::string> command;  // the program and its arguments, run without a shell
  std::string from;                  // the From header
  std::chrono::milliseconds timeout{30000};
  std::size_t queue = 100;  // mails waiting to be sent
};

// The words of --mail-command: split at spaces, no shell, no quoting; nullopt when empty.
std::optional<std::vector<std::string>> command_words(std::string_view text);

class Mailer {
 public:
  explicit Mailer(Settings settings);
  ~Mailer();  // stop()
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  // Queues `m`; `about` says in the log what it is ("reset mail for p1a2b"), never the link.
  // False, and counted as dropped, when the queue is full or the mailer stopped.
  bool send(Message m, std::string about);
  // Lets the mail being sent finish (within the timeout) and drops the ones waiting.
  void stop();

 private:
  struct Item {
    Message message;
    std::string about;
  };
  void run();
  void deliver(const Item& item);

  const Settings settings_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tanbo_server::server::mail
