#include "server/net/static_files.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <system_error>
#include <thread>
#include <vector>

#include "engine/core/sha256.hpp"
#include "server/net/content_coding.hpp"
#include "server/net/web_page.hpp"

namespace tanbo_server::server::static_files {
namespace {

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
namespace fs = std::filesystem;
using content_coding::Coding;

// Larger files are read at each request and sent as they are: the folder holds the page's code,
// not media, and memory stays bounded by what the page is made of.
constexpr std::uintmax_t kKeepMax = 4 << 20;
// The current version's names never change content: a year, and no revalidation on reload.
constexpr std::string_view kImmutable = "public, max-age=31536000, immutable";
// Everything else (the page, unversioned names, an older version's names): kept, revalidated
// at each use (a 304 when unchanged).
constexpr std::string_view kRevalidate = "no-cache";
// The page's language catalogues, web/i18n/<lang>.js (index.js is the code that loads them):
// the reader's one is preloaded with the page, English when the reader asks for none of them.
constexpr std::string_view kCatalogueDir = "i18n/";
constexpr std::string_view kFallbackLanguage = "en";
// The service worker keeps its scope at `/` while served under the version prefix.
constexpr std::string_view kServiceWorker = "sw.js";

http::response<http::string_body> base(const Request& req, http::status status) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tanbo-server");
  res.keep_alive(req.keep_alive());
  return res;
}

http::response<http::string_body> json_error(const Request& req, http::status status,
                                             std::string_view code, std::string message) {
  auto res = base(req, status);
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  if (status == http::status::method_not_allowed) res.set(http::field::allow, "GET, HEAD");
  res.body() = nlohmann::json{{"error", {{"code", code}, {"message", std::move(message)}}},
                              {"status", static_cast<unsigned>(status)}}
                   .dump();
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

// True when `path` (canonical) lies inside `root` (canonical): symlinks cannot lead out.
bool inside(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (p == path.end() || *p != *r) return false;
  return true;
}

}  // namespace

// Named rather than anonymous: Site::Impl holds these, and a member of internal linkage in a class
// of external linkage is refused when a unity build includes this file.
namespace detail {

// One version of one file (or of the page as filled in), with its compressed forms made on first
// need: gzip by the request that needs it (milliseconds), brotli by the worker thread (a request
// that finds it not ready yet gets gzip).
struct Entry {
  // As stat saw them: when either changes, the file is read again.
  std::uintmax_t size = 0;
  fs::file_time_type mtime{};
  std::string body;
  bool kept = true;  // false: too large, read at each request and never compressed
  std::string tag;   // the ETag of the identity form, without quotes
  std::string_view type;
  bool compressible = false;
  std::once_flag gz_once;
  std::string gz;  // empty: not smaller than the body
  std::atomic<bool> br_queued{false};
  std::atomic<bool> br_ready{false};
  std::string br;  // written before br_ready; empty: not smaller than the body
};

}  // namespace detail
using detail::Entry;
namespace {

bool compressible_type(std::string_view type) {
  return type.starts_with("text/") || type.find("json") != std::string_view::npos ||
         type.find("svg") != std::string_view::npos;
}

std::string hex_digest(std::string_view data, std::size_t digits) {
  return engine::to_hex(engine::sha256(data)).substr(0, digits);
}

// A validator for a file too large to keep: size and modification time.
std::string size_time_tag(std::uintmax_t size, fs::file_time_type mtime) {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%jx-%llx", size, static_cast<unsigned long long>(ns));
  return buf;
}

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.good() && !in.eof()) return std::nullopt;
  return body;
}

std::shared_ptr<Entry> text_entry(std::string body, std::string_view type) {
  auto e = std::make_shared<Entry>();
  e->tag = hex_digest(body, 20);
  e->body = std::move(body);
  e->size = e->body.size();
  e->type = type;
  e->compressible = compressible_type(type);
  return e;
}

std::shared_ptr<Entry> load(const fs::path& path, std::uintmax_t size, fs::file_time_type mtime) {
  auto type = content_type(path.filename().string());
  if (size > kKeepMax) {
    auto e = std::make_shared<Entry>();
    e->kept = false;
    e->tag = size_time_tag(size, mtime);
    e->type = type;
    e->size = size;
    e->mtime = mtime;
    return e;
  }
  auto body = read_file(path);
  if (!body) return nullptr;
  auto e = text_entry(std::move(*body), type);
  e->size = size;
  e->mtime = mtime;
  return e;
}

}  // namespace

struct Site::Impl {
  Impl(fs::path r, std::vector<std::pair<std::string, std::string>> data)
      : root(std::move(r)), page_data(std::move(data)) {}
  ~Impl() {
    {
      std::lock_guard lock(queue_mutex);
      stopping = true;
    }
    queue_ready.notify_all();
    if (worker.joinable()) worker.join();
  }

  fs::path root;
  const std::vector<std::pair<std::string, std::string>> page_data;

  std::mutex mutex;  // guards what follows, up to the worker's part
  std::map<std::string, std::shared_ptr<Entry>> files;  // by path under the root, '/'-separated
  std::string version;
  std::map<std::string, std::shared_ptr<Entry>> pages;  // index.html filled in, by language

  std::mutex queue_mutex;  // the brotli worker's
  std::condition_variable queue_ready;
  std::deque<std::weak_ptr<Entry>> queue;
  bool stopping = false;
  std::thread worker;

  // Walks the folder (hidden names left out, symlinks leading out too), reading what is new or
  // changed, and takes the version. With `mutex` held.
  void scan() {
    std::error_code ec;
    std::map<std::string, std::shared_ptr<Entry>> next;
    if (fs::is_directory(root, ec)) {
      fs::path real_root = fs::weakly_canonical(root, ec);
      fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
      for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::string name = it->path().filename().string();
        std::error_code fec;
        if (name.empty() || name.front() == '.') {
          if (it->is_directory(fec)) it.disable_recursion_pending();
          continue;
        }
        if (!it->is_regular_file(fec)) continue;
        if (it->is_symlink(fec) && !inside(real_root, fs::weakly_canonical(it->path(), fec)))
          continue;
        auto size = it->file_size(fec);
        auto mtime = it->last_write_time(fec);
        if (fec) continue;
        std::string rel = it->path().lexically_relative(root).generic_string();
        auto old = files.find(rel);
        if (old != files.end() && old->second->size == size && old->second->mtime == mtime)
          next.emplace(rel, old->second);
        else if (auto e = load(it->path(), size, mtime))
          next.emplace(rel, std::move(e));
      }
    }
    files.swap(next);
    std::string all;
    for (const auto& [rel, e] : files) all += rel + '\0' + e->tag + '\n';
    std::string now = files.empty() ? "" : hex_digest(all, 12);
    if (now != version) pages.clear();
    version = std::move(now);
  }

  // The current entry of `rel` (at `real`, its canonical path), read again if it changed.
  std::shared_ptr<Entry> file(const std::string& rel, const fs::path& real) {
    std::error_code ec;
    auto size = fs::file_size(real, ec);
    if (ec) return nullptr;
    auto mtime = fs::last_write_time(real, ec);
    if (ec) return nullptr;
    {
      std::lock_guard lock(mutex);
      auto it = files.find(rel);
      if (it != files.end() && it->second->size == size && it->second->mtime == mtime)
        return it->second;
    }
    auto e = load(real, size, mtime);
    if (!e) return nullptr;
    std::lock_guard lock(mutex);
    files[rel] = e;
    // A file changed since the last scan: the version changes with it, so that the current
    // version's names, kept a year, never hold two contents.
    scan();
    return e;
  }

  // The catalogues present: the <lang> of each i18n/<lang>.js but index.js. With `mutex` held.
  std::vector<std::string> languages() const {
    std::vector<std::string> out;
    for (auto it = files.lower_bound(std::string(kCatalogueDir));
         it != files.end() && it->first.starts_with(kCatalogueDir); ++it) {
      std::string_view name = std::string_view(it->first).substr(kCatalogueDir.size());
      if (name.find('/') != std::string_view::npos || !name.ends_with(".js")) continue;
      name.remove_suffix(3);
      if (name != "index" && !name.empty()) out.emplace_back(name);
    }
    return out;
  }

  // index.html for readers of `lang`, filled in for the current version. With `mutex` held.
  std::shared_ptr<Entry> page(const std::string& lang) {
    if (auto it = pages.find(lang); it != pages.end()) return it->second;
    auto index = files.find(std::string(kPage));
    if (index == files.end() || !index->second->kept) return nullptr;
    const std::string& raw = index->second->body;
    const std::string prefix = std::string(kVersionPrefix) + version + "/";
    auto known = [&](std::string_view link) {
      auto e = files.find(std::string(link.substr(0, link.find_first_of("?#"))));
      return e != files.end() && e->second->kept;
    };
    std::string html = web_page::prefix_links(web_page::set_html_lang(raw, lang), prefix, known);
    // Every module the page's module scripts import, directly or not, in the order found: the
    // browser fetches them all at once rather than one level of imports per round trip.
    std::vector<std::string> order;
    for (const auto& src : web_page::module_scripts(raw))
      order.push_back(src.substr(0, src.find('?')));
    const std::size_t entries = order.size();
    for (std::size_t i = 0; i < order.size(); ++i) {
      auto e = files.find(order[i]);
      if (e == files.end() || !e->second->kept) continue;
      for (auto& dep : web_page::static_imports(e->second->body, order[i]))
        if (known(dep) && std::find(order.begin(), order.end(), dep) == order.end())
          order.push_back(std::move(dep));
    }
    std::string catalogue = std::string(kCatalogueDir) + lang + ".js";
    if (known(catalogue) && std::find(order.begin(), order.end(), catalogue) == order.end())
      order.push_back(catalogue);
    std::string links;
    for (const auto& [id, json] : page_data) {
      // "</" would end the element early: JSON lets the slash be escaped.
      std::string text;
      for (std::size_t i = 0; i < json.size(); ++i) {
        text += json[i];
        if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') text += '\\';
      }
      links += "  <script type=\"application/json\" id=\"" + id + "\">" + text + "</script>\n";
    }
    for (std::size_t i = entries; i < order.size(); ++i)
      if (known(order[i]))
        links += "  <link rel=\"modulepreload\" href=\"" + prefix + order[i] + "\">\n";
    auto e = text_entry(web_page::insert_before_head_end(html, links), content_type(kPage));
    pages.emplace(lang, e);
    return e;
  }

  void ensure_gzip(Entry& e) {
    std::call_once(e.gz_once, [&] {
      std::string out = content_coding::gzip(e.body);
      if (out.size() < e.body.size()) e.gz = std::move(out);
    });
  }

  void queue_brotli(const std::shared_ptr<Entry>& e) {
    if (e->br_queued.exchange(true)) return;
    {
      std::lock_guard lock(queue_mutex);
      if (stopping) return;
      queue.push_back(e);
      if (!worker.joinable()) worker = std::thread([this] { compress_loop(); });
    }
    queue_ready.notify_one();
  }

  void compress_loop() {
    for (;;) {
      std::unique_lock lock(queue_mutex);
      queue_ready.wait(lock, [&] { return stopping || !queue.empty(); });
      if (stopping) return;
      auto weak = queue.front();
      queue.pop_front();
      lock.unlock();
      auto e = weak.lock();
      if (!e) continue;
      std::string out;
      try {
        out = content_coding::brotli(e->body);
      } catch (const std::exception&) {
        out.clear();  // identity or gzip it stays
      }
      if (out.size() < e->body.size()) e->br = std::move(out);
      e->br_ready.store(true, std::memory_order_release);
    }
  }

  Response answer(const Request& req, const std::shared_ptr<Entry>& e, const fs::path& real,
                  std::string_view cache, std::string_view vary, bool service_worker) {
    Coding coding = Coding::identity;
    std::string body_storage;
    const std::string* body = &e->body;
    if (!e->kept) {
      auto read = read_file(real);
      if (!read) return json_error(req, http::status::not_found, "not_found", "no such file");
      body_storage = std::move(*read);
      body = &body_storage;
    } else if (e->compressible) {
      auto accepted = content_coding::accepted(req[http::field::accept_encoding]);
      if (accepted.br) {
        if (e->br_ready.load(std::memory_order_acquire)) {
          if (!e->br.empty()) coding = Coding::br, body = &e->br;
        } else {
          queue_brotli(e);
        }
      }
      if (coding == Coding::identity && accepted.gzip) {
        try {
          ensure_gzip(*e);
          if (!e->gz.empty()) coding = Coding::gzip, body = &e->gz;
        } catch (const std::exception&) {
          // sent as it is
        }
      }
    }
    std::string tag = "\"" + e->tag;
    if (coding != Coding::identity) tag += "-" + std::string(content_coding::name(coding));
    tag += "\"";
    auto finish = [&](Response& res) {
      res.set(http::field::etag, tag);
      res.set(http::field::cache_control, cache);
      if (e->compressible && e->kept) res.set(http::field::vary, vary);
      res.set("X-Content-Type-Options", "nosniff");
      if (service_worker) res.set("Service-Worker-Allowed", "/");
    };
    if (auto inm = req[http::field::if_none_match]; !inm.empty() && none_match_names(inm, tag)) {
      auto res = base(req, http::status::not_modified);
      finish(res);
      return res;
    }
    auto res = base(req, http::status::ok);
    finish(res);
    res.set(http::field::content_type, e->type);
    if (coding != Coding::identity)
      res.set(http::field::content_encoding, content_coding::name(coding));
    res.body() = *body;
    res.prepare_payload();
    if (req.method() == http::verb::head) res.body().clear();  // Content-Length stays the GET's
    return res;
  }
};

Site::Site(fs::path root, std::vector<std::pair<std::string, std::string>> page_data)
    : impl_(std::make_unique<Impl>(std::move(root), std::move(page_data))) {
  std::lock_guard lock(impl_->mutex);
  impl_->scan();
}

Site::~Site() = default;

const fs::path& Site::root() const { return impl_->root; }

std::string Site::version() {
  std::lock_guard lock(impl_->mutex);
  impl_->scan();
  return impl_->version;
}

Response Site::serve(const Request& req) {
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return json_error(req, http::status::method_not_allowed, "bad_method", "use GET or HEAD");
  const fs::path& root = impl_->root;
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return json_error(req, http::status::not_found, "not_found",
                      "the browser client is not installed: no directory '" + root.string() +
                          "' (set --web-dir or TANBO_WEB_DIR)");
  std::string_view target = req.target();
  std::string_view path = target.substr(0, target.find('?'));
  auto not_found = [&] {
    return json_error(req, http::status::not_found, "not_found",
                      "no such path: " + std::string(path));
  };
  // `/v/<version>/<path>`: <path> under the prefix.
  std::optional<std::string_view> asked_version;
  std::string_view file_path = path;
  if (path.starts_with(kVersionPrefix)) {
    std::string_view rest = path.substr(kVersionPrefix.size());
    auto slash = rest.find('/');
    if (slash == std::string_view::npos || !is_version(rest.substr(0, slash))) return not_found();
    asked_version = rest.substr(0, slash);
    file_path = rest.substr(slash);
  }
  auto file = resolve(root, file_path);
  if (!file) return not_found();
  std::string rel = file->lexically_relative(root).generic_string();

  try {
    if (rel == kPage) {
      std::shared_ptr<Entry> page;
      {
        std::lock_guard lock(impl_->mutex);
        impl_->scan();
        std::string lang = web_page::pick_language(req[http::field::accept_language],
                                                   impl_->languages(), kFallbackLanguage);
        page = impl_->page(lang);
      }
      if (!page) return not_found();
      return impl_->answer(req, page, {}, kRevalidate, "Accept-Encoding, Accept-Language", false);
    }
    fs::path real = fs::weakly_canonical(*file, ec);
    fs::path real_root = fs::weakly_canonical(root, ec);
    if (ec || !inside(real_root, real) || !fs::is_regular_file(real, ec)) return not_found();
    auto entry = impl_->file(rel, real);
    if (!entry) return not_found();
    if (asked_version) {
      std::string now;
      {
        std::lock_guard lock(impl_->mutex);
        now = impl_->version;
      }
      if (*asked_version != now) {
        // Another version's name (a page loaded before the files changed): a name never holds
        // two contents, so the file is sent under the current one. Not kept: the current
        // version moves on.
        auto res = base(req, http::status::found);
        std::string to = std::string(kVersionPrefix) + now + "/" + rel;
        if (auto q = target.find('?'); q != std::string_view::npos) to += target.substr(q);
        res.set(http::field::location, to);
        res.set(http::field::cache_control, "no-store");
        res.prepare_payload();
        return res;
      }
    }
    return impl_->answer(req, entry, real, asked_version ? kImmutable : kRevalidate,
                         "Accept-Encoding", rel == kServiceWorker);
  } catch (const std::exception&) {
    return not_found();  // out of memory reading a file, a filesystem error: as if absent
  }
}

}  // namespace tanbo_server::server::static_files
