#!/bin/sh
# make series: the kernel series as a kernel developer takes it, one
# git format-patch series with a cover letter against the pristine
# source, for the kernel VERSION= names (6.1 or 6.12).
#
# Debian's linux-source-<version> is extracted once into a git
# repository, build/<version>/series/linux, committed and tagged
# "pristine". patches/<version>/ is
# applied to it with git am; a patch whose line in the series names a
# list of new files (the driver's: driver/files; the selftest's:
# guest-apps/files) also gets those files, from the kit's folders (their
# source of truth). The result is the branch "sigmouse", and git format-patch
# --rfc --cover-letter writes it to build/<version>/series/out, the
# cover letter's subject and text from patches/<version>/cover-letter. Commit dates are
# the patches' own, so the same sources export the same series.
set -eu
SIGMOUSE_FLAVOUR=bench  # $kernel_tree: the tree check-series.sh walks
. "$(dirname "$0")/lib.sh"

[ -r "$source_tarball" ] || die "$source_tarball missing: install $source_package"
require_series

repo=$series_repo
out=$build/series/out
debian_version=$(dpkg-query -W -f='${Version}' "$source_package")
export GIT_AUTHOR_NAME="sigmouse developers" GIT_AUTHOR_EMAIL=sigmouse@localhost
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

# (never git -C a directory without its own .git: git would find the
# project's repository above build/)
if [ "$(cat "$build/series/pristine" 2>/dev/null)" != "$debian_version" ] ||
   [ ! -d "$repo/.git" ]; then
	say "extracting $source_tarball into a git repository"
	rm -rf "$repo" "$build/series/pristine" "$kernel_tree"
	mkdir -p "$repo"
	tar -xJf "$source_tarball" -C "$repo" --strip-components=1
	# Debian's tree ignores itself ("/*" in .gitignore): add with -f.
	# Its 80,000 objects stay loose and uncompressed: git add zlib-
	# compressed them in twice the time, and the automatic gc that
	# followed packed them in the background, a minute of both cores
	# that make test's builds paid for (1.4 GB instead of 0.25)
	git -C "$repo" init -q
	git -C "$repo" config core.looseCompression 0
	git -C "$repo" config gc.auto 0
	git -C "$repo" add -f .
	git -C "$repo" commit -q \
		-m "Linux $(make -s -C "$repo" kernelversion) ($source_package $debian_version)"
	git -C "$repo" tag pristine
	echo "$debian_version" >"$build/series/pristine"
fi

git -C "$repo" am --abort 2>/dev/null || :
git -C "$repo" checkout -q -f --detach pristine
git -C "$repo" clean -q -f -d -x
for p in $(series_patches); do
	git -C "$repo" am -q --committer-date-is-author-date "$patches/$p" ||
		die "patches/$version/$p does not apply to pristine $debian_version with git am"
	# the new files a patch adds go into its commit, from the kit's
	# folders (the series names the list: driver/files, guest-apps/files)
	new_files=$(patch_new_files "$p")
	[ -n "$new_files" ] || continue
	echo "$new_files" | while read -r file path; do
		mkdir -p "$repo/$(dirname "$path")"
		cp "$file" "$repo/$path"
		git -C "$repo" add -f "$path"
	done
	GIT_COMMITTER_DATE=$(git -C "$repo" log -1 --format=%aD) \
		git -C "$repo" commit -q --amend --no-edit
done
git -C "$repo" branch -f sigmouse HEAD

rm -rf "$out"
git -C "$repo" format-patch -q --rfc --cover-letter -o "$out" pristine..sigmouse
# the cover letter: "*** SUBJECT HERE ***" and "*** BLURB HERE ***"
# become the cover-letter file's first line and the rest (the subject
# is inserted by awk, not sed: it may hold any character)
cover=$out/0000-cover-letter.patch
subject=$(head -n 1 "$patches/cover-letter")
tail -n +3 "$patches/cover-letter" >"$out/blurb"
SUBJECT=$subject awk '{
	i = index($0, "*** SUBJECT HERE ***")
	if (i) $0 = substr($0, 1, i - 1) ENVIRON["SUBJECT"] substr($0, i + 20)
} 1' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
sed -i \
	-e "/\*\*\* BLURB HERE \*\*\*/{r $out/blurb
d}" "$cover"
rm "$out/blurb"
say "the series and its cover letter: $out"
