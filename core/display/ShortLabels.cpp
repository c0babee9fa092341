#include "display/ShortLabels.h"

#include <cstddef>
#include <map>
#include <utility>

namespace olens {

namespace {

const std::string kEllipsis = "\xE2\x80\xA6"; // "…"

// UTF-8 code points of a string (each as its bytes), so cuts never split a character.
std::vector<std::string> codePoints(const std::string& s)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < s.size();) {
        std::size_t n = 1;
        while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80)
            ++n;
        out.push_back(s.substr(i, n));
        i += n;
    }
    return out;
}

std::string join(const std::vector<std::string>& cps, std::size_t from, std::size_t to)
{
    std::string s;
    for (std::size_t i = from; i < to; ++i)
        s += cps[i];
    return s;
}

bool isSeparator(const std::string& cp)
{
    return cp == " " || cp == "_" || cp == "-" || cp == "." || cp == "/";
}

std::string shortenWords(const std::string& name, const std::function<bool(const std::string&)>& fits)
{
    // Words and the separators between them, as code points.
    std::vector<std::vector<std::string>> words;
    std::vector<std::string> separators; // separators[i] follows words[i]
    words.emplace_back();
    for (const std::string& cp : codePoints(name)) {
        if (isSeparator(cp)) {
            separators.push_back(cp);
            words.emplace_back();
        } else {
            words.back().push_back(cp);
        }
    }
    auto text = [&] {
        std::string s;
        for (std::size_t w = 0; w < words.size(); ++w) {
            s += join(words[w], 0, words[w].size());
            if (w < separators.size())
                s += separators[w];
        }
        return s;
    };
    // Every word down to 3 letters, then the words before the last down to their initial
    // ("mean_radius" → "mean_rad" → "m_rad"): the last word usually tells columns apart.
    auto cut = [&](std::size_t minLetters, std::size_t words_) {
        while (true) {
            // The longest word (the last of equals: a name's head usually says the most).
            std::size_t longest = words_;
            for (std::size_t w = 0; w < words_; ++w)
                if (words[w].size() > minLetters && (longest == words_ || words[w].size() >= words[longest].size()))
                    longest = w;
            if (longest == words_)
                return false;
            words[longest].pop_back();
            if (fits(text()))
                return true;
        }
    };
    if (cut(3, words.size()) || cut(1, words.size() - 1))
        return text();
    // Still too long: cut the end.
    const std::vector<std::string> cps = codePoints(text());
    for (std::size_t n = cps.size(); n > 0; --n) {
        const std::string s = join(cps, 0, n - 1) + kEllipsis;
        if (fits(s) || n == 1)
            return s;
    }
    return kEllipsis;
}

std::string cutMiddle(const std::string& name, const std::function<bool(const std::string&)>& fits)
{
    const std::vector<std::string> cps = codePoints(name);
    for (std::size_t keep = cps.size() - 1; keep >= 2; --keep) {
        const std::size_t head = (keep + 1) / 2, tail = keep / 2;
        const std::string s = join(cps, 0, head) + kEllipsis + join(cps, cps.size() - tail, cps.size());
        if (fits(s))
            return s;
    }
    return {}; // no room for two ends: the label stays as it was
}

} // namespace

std::vector<std::string> shortLabels(const std::vector<std::string>& names,
                                     const std::function<bool(const std::string&)>& fits)
{
    std::vector<std::string> out;
    out.reserve(names.size());
    for (const std::string& n : names)
        out.push_back(fits(n) ? n : shortenWords(n, fits));
    // Labels that collide although their names differ: keep both ends of each.
    std::map<std::string, std::vector<std::size_t>> seen;
    for (std::size_t i = 0; i < out.size(); ++i)
        seen[out[i]].push_back(i);
    for (const auto& [label, rows] : seen) {
        if (rows.size() < 2)
            continue;
        bool differ = false;
        for (std::size_t r : rows)
            differ = differ || names[r] != names[rows.front()];
        if (!differ)
            continue;
        for (std::size_t r : rows)
            if (codePoints(names[r]).size() > 2)
                if (std::string middle = cutMiddle(names[r], fits); !middle.empty())
                    out[r] = std::move(middle);
    }
    return out;
}

} // namespace olens
