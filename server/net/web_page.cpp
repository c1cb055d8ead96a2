#include "server/net/web_page.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

namespace tanbo_server::server::web_page {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// `spec` ("./x.js", "../boards/y.js") against the folder of `own_path`; nullopt when it would
// climb above the web folder.
std::optional<std::string> join(std::string_view own_path, std::string_view spec) {
  std::vector<std::string_view> parts;
  auto slash = own_path.rfind('/');
  std::string_view dir = slash == std::string_view::npos ? "" : own_path.substr(0, slash);
  auto push = [&](std::string_view path) -> bool {
    while (!path.empty()) {
      auto end = path.find('/');
      std::string_view seg = path.substr(0, end);
      if (seg == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!seg.empty() && seg != ".") {
        parts.push_back(seg);
      }
      if (end == std::string_view::npos) break;
      path.remove_prefix(end + 1);
    }
    return true;
  };
  if (!push(dir) || !push(spec) || parts.empty()) return std::nullopt;
  std::string out;
  for (auto p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

// The value of attribute `name` inside the tag text `tag` ("<script type=module src=x>"), or
// nullopt. Quoted with " or ', or bare.
std::optional<std::string_view> attribute(std::string_view tag, std::string_view name) {
  for (std::size_t i = 0; i + name.size() < tag.size(); ++i) {
    if (i > 0 && !is_space(tag[i - 1])) continue;
    bool same = true;
    for (std::size_t k = 0; k < name.size() && same; ++k) same = lower(tag[i + k]) == name[k];
    if (!same) continue;
    std::size_t j = i + name.size();
    while (j < tag.size() && is_space(tag[j])) ++j;
    if (j >= tag.size() || tag[j] != '=') continue;
    ++j;
    while (j < tag.size() && is_space(tag[j])) ++j;
    if (j >= tag.size()) return std::nullopt;
    if (tag[j] == '"' || tag[j] == '\'') {
      auto end = tag.find(tag[j], j + 1);
      if (end == std::string_view::npos) return std::nullopt;
      return tag.substr(j + 1, end - j - 1);
    }
    auto end = j;
    while (end < tag.size() && !is_space(tag[end]) && tag[end] != '>') ++end;
    return tag.substr(j, end - j);
  }
  return std::nullopt;
}

bool starts_with_ci(std::string_view text, std::size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (lower(text[at + k]) != word[k]) return false;
  return true;
}

}  // namespace

std::vector<std::string> static_imports(std::string_view source, std::string_view own_path) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    std::size_t len = 0;
    if (source.compare(i, 4, "from") == 0)
      len = 4;
    else if (source.compare(i, 6, "import") == 0)
      len = 6;
    else
      continue;
    if ((i > 0 && is_word_char(source[i - 1])) ||
        (i + len < source.size() && is_word_char(source[i + len])))
      continue;
    std::size_t j = i + len;
    while (j < source.size() && is_space(source[j])) ++j;
    if (j >= source.size() || (source[j] != '\'' && source[j] != '"')) continue;
    char quote = source[j];
    auto end = source.find_first_of(std::string{quote, '\n'}, j + 1);
    if (end == std::string_view::npos || source[end] != quote) continue;
    std::string_view spec = source.substr(j + 1, end - j - 1);
    i = end;
    if (!spec.starts_with("./") && !spec.starts_with("../")) continue;
    auto path = join(own_path, spec);
    if (path && std::find(out.begin(), out.end(), *path) == out.end()) out.push_back(*path);
  }
  return out;
}

std::vector<std::string> module_scripts(std::string_view html) {
  std::vector<std::string> out;
  for (std::size_t i = html.find('<'); i != std::string_view::npos; i = html.find('<', i + 1)) {
    if (!starts_with_ci(html, i + 1, "script") ||
        (i + 7 < html.size() && !is_space(html[i + 7]) && html[i + 7] != '>'))
      continue;
    auto close = html.find('>', i);
    if (close == std::string_view::npos) break;
    std::string_view tag = html.substr(i, close - i);
    auto type = attribute(tag, "type");
    auto src = attribute(tag, "src");
    if (type && src && type->size() == 6 && starts_with_ci(*type, 0, "module"))
      out.emplace_back(*src);
  }
  return out;
}

std::string prefix_links(std::string_view html, std::string_view prefix,
                         const std::function<bool(std::string_view)>& exists) {
  std::string out;
  out.reserve(html.size() + 256);
  std::size_t copied = 0;
  for (std::size_t i = 0; i < html.size(); ++i) {
    std::size_t name_len = 0;
    if (starts_with_ci(html, i, "src="))
      name_len = 4;
    else if (starts_with_ci(html, i, "href="))
      name_len = 5;
    else
      continue;
    if (i == 0 || !is_space(html[i - 1])) continue;
    std::size_t q = i + name_len;
    if (q >= html.size() || (html[q] != '"' && html[q] != '\'')) continue;
    auto end = html.find(html[q], q + 1);
    if (end == std::string_view::npos) break;
    std::string_view value = html.substr(q + 1, end - q - 1);
    bool relative = !value.empty() && value.find(':') == std::string_view::npos &&
                    value.front() != '/' && value.front() != '#' && value.front() != '?' &&
                    value.front() != '.';
    if (relative && exists(value)) {
      out.append(html.substr(copied, q + 1 - copied));
      out.append(prefix);
      copied = q + 1;
    }
    i = end;
  }
  out.append(html.substr(copied));
  return out;
}

std::string insert_before_head_end(std::string_view html, std::string_view text) {
  std::size_t at = html.size();
  for (std::size_t i = html.find("</"); i != std::string_view::npos; i = html.find("</", i + 2))
    if (starts_with_ci(html, i + 2, "head")) {
      at = i;
      break;
    }
  std::string out;
  out.reserve(html.size() + text.size());
  out.append(html.substr(0, at));
  out.append(text);
  out.append(html.substr(at));
  return out;
}

std::string set_html_lang(std::string_view html, std::string_view lang) {
  for (std::size_t i = html.find('<'); i != std::string_view::npos; i = html.find('<', i + 1)) {
    if (!starts_with_ci(html, i + 1, "html") ||
        (i + 5 < html.size() && !is_space(html[i + 5]) && html[i + 5] != '>'))
      continue;
    auto close = html.find('>', i);
    if (close == std::string_view::npos) break;
    std::string_view tag = html.substr(i, close - i);
    std::string out(html.substr(0, i));
    if (auto old = attribute(tag, "lang")) {
      auto at = static_cast<std::size_t>(old->data() - html.data());
      out.append(html.substr(i, at - i));
      out.append(lang);
      out.append(html.substr(at + old->size()));
    } else {
      out.append("<html lang=\"");
      out.append(lang);
      out.append("\"");
      out.append(html.substr(i + 5));
    }
    return out;
  }
  return std::string(html);
}

std::string pick_language(std::string_view accept_language,
                          const std::vector<std::string>& languages, std::string_view fallback) {
  struct Choice {
    std::string base;
    double q;
  };
  std::vector<Choice> asked;
  while (!accept_language.empty()) {
    auto comma = accept_language.find(',');
    std::string_view item = accept_language.substr(0, comma);
    accept_language.remove_prefix(comma == std::string_view::npos ? accept_language.size()
                                                                  : comma + 1);
    auto semi = item.find(';');
    std::string_view tag = item.substr(0, semi);
    double q = 1;
    if (semi != std::string_view::npos) {
      auto qpos = item.find("q=", semi);
      if (qpos != std::string_view::npos) q = std::atof(std::string(item.substr(qpos + 2)).c_str());
    }
    while (!tag.empty() && is_space(tag.front())) tag.remove_prefix(1);
    while (!tag.empty() && is_space(tag.back())) tag.remove_suffix(1);
    std::string base;
    for (char c : tag.substr(0, tag.find_first_of("-_"))) base += lower(c);
    if (!base.empty() && q > 0) asked.push_back({std::move(base), q});
  }
  std::stable_sort(asked.begin(), asked.end(),
                   [](const Choice& a, const Choice& b) { return a.q > b.q; });
  for (const auto& a : asked)
    if (std::find(languages.begin(), languages.end(), a.base) != languages.end()) return a.base;
  return std::string(fallback);
}

}  // namespace tanbo_server::server::web_page
