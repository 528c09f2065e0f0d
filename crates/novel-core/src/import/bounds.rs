//! Bounds on a manuscript before it is parsed: the file's size, and for a DOCX (a zip archive)
//! the number of entries and what they decompress to, measured by decompressing them into
//! nothing with a cap rather than trusting the sizes the archive declares. A zip bomb — a few
//! kilobytes that inflate to gigabytes — is refused with a clear message before the DOCX
//! reader, which holds what it inflates in memory, ever sees it.

use std::io::{Cursor, Read};

/// The largest manuscript file read: a long novel is a few megabytes, even as a DOCX with a
/// cover image.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// The most one DOCX entry may decompress to.
pub const MAX_ENTRY_BYTES: u64 = 128 << 20;
/// The most all entries together may decompress to.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;
/// The most entries a DOCX may hold (a real one has a few dozen).
pub const MAX_ENTRIES: usize = 10_000;

fn mib(bytes: u64) -> u64 {
    bytes >> 20
}

/// Checks that the zip archive `bytes` stays within the bounds above, or says why not.
pub fn check_archive(bytes: &[u8]) -> Result<(), String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("not a readable DOCX ({e})"))?;
    if archive.len() > MAX_ENTRIES {
        return Err(format!(
            "a DOCX of {} parts, more than the {MAX_ENTRIES} a manuscript could have",
            archive.len()
        ));
    }
    let mut total: u64 = 0;
    for index in 0..archive.len() {
        let mut entry = archive
            .by_index(index)
            .map_err(|e| format!("not a readable DOCX ({e})"))?;
        let name = entry.name().to_string();
        let too_big = |size: u64| {
            format!(
                "a DOCX whose part {name} unpacks to more than {} MiB (a manuscript's text is a \
                 few MiB; this looks like a zip bomb)",
                mib(size)
            )
        };
        // What the archive declares first (cheap), then what it really holds.
        if entry.size() > MAX_ENTRY_BYTES {
            return Err(too_big(MAX_ENTRY_BYTES));
        }
        let room = MAX_ENTRY_BYTES.min(MAX_TOTAL_BYTES - total);
        let read = std::io::copy(&mut (&mut entry).take(room + 1), &mut std::io::sink())
            .map_err(|e| format!("not a readable DOCX ({e})"))?;
        if read > room {
            return Err(if room < MAX_ENTRY_BYTES {
                format!(
                    "a DOCX that unpacks to more than {} MiB in all (a manuscript's text is a \
                     few MiB; this looks like a zip bomb)",
                    mib(MAX_TOTAL_BYTES)
                )
            } else {
                too_big(MAX_ENTRY_BYTES)
            });
        }
        total += read;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A zip holding `entries` of zeros of the given sizes, deflated.
    fn zip_of(entries: &[(&str, u64)]) -> Vec<u8> {
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(true);
        let chunk = vec![0u8; 1 << 20];
        for (name, size) in entries {
            out.start_file(*name, options).unwrap();
            let mut left = *size;
            while left > 0 {
                let n = left.min(chunk.len() as u64) as usize;
                out.write_all(&chunk[..n]).unwrap();
                left -= n as u64;
            }
        }
        out.finish().unwrap().into_inner()
    }

    /// The process's peak resident memory in bytes since the last reset (Linux only).
    fn peak_rss() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    #[test]
    fn a_zip_bomb_is_refused_by_the_import_within_a_memory_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("novel.docx");
        // 1 GiB of zeros as the document: about 1 MiB on disk.
        std::fs::write(&path, zip_of(&[("word/document.xml", 1 << 30)])).unwrap();
        // Reset the peak to what is in use now (Linux ≥ 4.0), then import.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = peak_rss();
        let started = std::time::Instant::now();
        let err = crate::import::read_manuscript(&path)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("zip bomb") && err.contains("novel.docx"),
            "{err}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        if let (Some(before), Some(after)) = (before, peak_rss()) {
            let grew = after.saturating_sub(before);
            assert!(grew < 64 << 20, "the import held {} MiB", grew >> 20);
        }

        // A file larger than any manuscript is refused before it is read whole.
        let huge = dir.path().join("huge.txt");
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let err = crate::import::read_manuscript(&huge)
            .unwrap_err()
            .to_string();
        assert!(err.contains("larger than 64 MiB"), "{err}");
    }

    #[test]
    fn parts_that_unpack_too_far_are_refused_and_small_ones_pass() {
        let fine = zip_of(&[("word/document.xml", 4096), ("[Content_Types].xml", 512)]);
        check_archive(&fine).unwrap();

        let bomb = zip_of(&[("word/document.xml", MAX_ENTRY_BYTES + (1 << 20))]);
        assert!(bomb.len() < 2 << 20, "a small file: {} bytes", bomb.len());
        let err = check_archive(&bomb).unwrap_err();
        assert!(
            err.contains("zip bomb") && err.contains("word/document.xml"),
            "{err}"
        );

        let many = zip_of(&[("a", 100 << 20), ("b", 100 << 20), ("c", 100 << 20)]);
        let err = check_archive(&many).unwrap_err();
        assert!(err.contains("in all"), "{err}");
        assert!(check_archive(b"PK not really").is_err());
    }
}
