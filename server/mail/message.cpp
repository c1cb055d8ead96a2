#include "server/mail/message.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <ctime>
#include <vector>

namespace tanbo_server::server::mail {
namespace {

struct Words {
  std::string_view subject;
  std::string_view body;  // {name}, {link}, {minutes} filled in
};

// Subject and body per kind and language: English first.
constexpr Words kConfirm[] = {
    {"Confirm your mail address for Tanbo",
     "Hello {name},\n\nTo confirm that this address is yours, open this link:\n\n{link}\n\n"
     "It works for {hours} hours. If you did not ask for this, ignore this mail: nothing "
     "changes.\n"},
    {"Confirmez votre adresse électronique pour Tanbo",
     "Bonjour {name},\n\nPour confirmer que cette adresse est bien la vôtre, ouvrez ce lien\u00a0:"
     "\n\n{link}\n\nIl reste valable {hours}\u00a0heures. Si vous n’avez rien demandé, "
     "ignorez ce message\u00a0: rien ne change.\n"},
    {"Tanbo：メールアドレスの確認",
     "{name} さん\n\nこのメールアドレスがあなたのものであることを確認するには、"
     "次のリンクを開いてください。\n\n{link}\n\nこのリンクの有効期限は{hours}時間です。"
     "心当たりがない場合は、このメールを無視してください。何も変更されません。\n"},
};
constexpr Words kReset[] = {
    {"Choose a new Tanbo password",
     "Hello {name},\n\nSomeone, probably you, asked for a new password for your Tanbo account. "
     "To choose one, open this link:\n\n{link}\n\nIt works once, for {minutes} minutes. Every "
     "device signed in to your account will be signed out. If you did not ask for this, ignore "
     "this mail: your password stays as it is.\n"},
    {"Choisissez un nouveau mot de passe Tanbo",
     "Bonjour {name},\n\nQuelqu’un, sans doute vous, a demandé un nouveau mot de passe pour "
     "votre compte Tanbo. Pour le choisir, ouvrez ce lien\u00a0:\n\n{link}\n\nIl ne sert qu’une "
     "fois et reste valable {minutes}\u00a0minutes. Tous les appareils connectés à votre compte "
     "seront déconnectés. Si vous n’avez rien demandé, ignorez ce message\u00a0: votre mot de "
     "passe reste le même.\n"},
    {"Tanbo：新しいパスワードの設定",
     "{name} さん\n\nTanbo アカウントの新しいパスワードの設定が求められました。"
     "設定するには、次のリンクを開いてください。\n\n{link}\n\n"
     "このリンクは一度だけ、{minutes}分間有効です。アカウントにログインしているすべての端末は"
     "ログアウトされます。心当たりがない場合は、このメールを無視してください。"
     "パスワードは変わりません。\n"},
};

std::string filled(std::string_view text, std::string_view name, std::string_view link,
                   int minutes) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    auto open = text.find('{', i);
    out.append(text.substr(i, open - i));
    if (open == std::string_view::npos) break;
    auto close = text.find('}', open);
    const std::string_view key = text.substr(open + 1, close - open - 1);
    if (key == "name")
      out.append(name);
    else if (key == "link")
      out.append(link);
    else if (key == "hours")
      out.append(std::to_string(minutes / 60));
    else
      out.append(std::to_string(minutes));
    i = close + 1;
  }
  return out;
}

bool ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

std::string base64(std::string_view bytes) {
  std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
  const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                                int(bytes.size()));
  return std::string(reinterpret_cast<const char*>(out.data()), std::size_t(n));
}

// RFC 2047: a header text that is not ASCII, as base64 encoded-words of whole characters, each
// short enough for its own folded line.
std::string encoded_words(std::string_view text) {
  if (ascii(text)) return std::string(text);
  std::string out;
  while (!text.empty()) {
    std::size_t take = std::min<std::size_t>(text.size(), 42);
    while (take < text.size() && (static_cast<unsigned char>(text[take]) & 0xC0) == 0x80) --take;
    if (!out.empty()) out.append("\n ");  // folded: each word on a line of its own
    out.append("=?UTF-8?B?").append(base64(text.substr(0, take))).append("?=");
    text.remove_prefix(take);
  }
  return out;
}

std::string date_header(std::int64_t now_ms) {
  const std::time_t t = std::time_t(now_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

std::string message_id(std::string_view from) {
  unsigned char bytes[12];
  RAND_bytes(bytes, sizeof bytes);
  std::string id;
  for (unsigned char b : bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    id += kHex[b >> 4];
    id += kHex[b & 15];
  }
  auto at = from.rfind('@');
  std::string_view domain = at == std::string_view::npos ? "localhost" : from.substr(at + 1);
  if (domain.ends_with('>')) domain.remove_suffix(1);
  return "<" + id + "@" + std::string(domain) + ">";
}

}  // namespace

Message written(Kind kind, std::string_view lang, std::string to, std::string_view username,
                std::string_view link, int minutes) {
  const std::size_t i = lang == "fr" ? 1 : lang == "ja" ? 2 : 0;
  const Words& w = kind == Kind::confirm ? kConfirm[i] : kReset[i];
  return {std::move(to), std::string(w.subject), filled(w.body, username, link, minutes)};
}

std::string compose(const Message& m, std::string_view from, std::int64_t now_ms) {
  std::string out;
  out.append("From: ").append(from).append("\n");
  out.append("To: ").append(m.to).append("\n");
  out.append("Subject: ").append(encoded_words(m.subject)).append("\n");
  out.append("Date: ").append(date_header(now_ms)).append("\n");
  out.append("Message-ID: ").append(message_id(from)).append("\n");
  out.append("Auto-Submitted: auto-generated\n");
  out.append("MIME-Version: 1.0\n");
  out.append("Content-Type: text/plain; charset=UTF-8\n");
  out.append("Content-Transfer-Encoding: 8bit\n\n");
  out.append(m.body);
  return out;
}

bool sender_ok(std::string_view from) {
  if (from.empty() || from.size() > 320 || !ascii(from)) return false;
  auto at = from.rfind('@');
  if (at == std::string_view::npos) return false;
  auto open = from.find('<');
  if (open == std::string_view::npos) return from.find(' ') == std::string_view::npos;
  return from.back() == '>' && open < at;
}

}  // namespace tanbo_server::server::mail
