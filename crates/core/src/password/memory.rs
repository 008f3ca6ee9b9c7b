//! A hashing worker's argon2 memory: kept from one hash to the next while hashes are waiting, given
//! back to the system when none is.
//!
//! Reusing the blocks makes a sign-in flood free of allocations and page faults (the sign-in rate
//! is the machine's argon2 rate). But kept for good, the workers' memory (19 MiB each when this was
//! written) stayed in the API's resident memory all day after a single sign-in. So a worker with nothing queued drops its
//! pages with `madvise(MADV_DONTNEED)`: the allocation stays, the kernel takes the pages back, and
//! the next hash faults in zeroed pages (a few milliseconds once; argon2 writes every block before
//! reading it, so their contents never matter). See docs/performance.md, "Memory".

use argon2::Block;

pub(super) struct Memory {
    blocks: Vec<Block>,
    /// Whether `blocks` may hold resident pages since the last release.
    resident: bool,
}

impl Memory {
    pub(super) fn new() -> Self {
        Memory {
            blocks: Vec::new(),
            resident: false,
        }
    }

    /// `needed` blocks, grown to the largest hash seen so far.
    pub(super) fn blocks(&mut self, needed: usize) -> &mut [Block] {
        if self.blocks.len() < needed {
            self.blocks.resize(needed, Block::default());
        }
        self.resident = true;
        &mut self.blocks[..needed]
    }

    /// Gives the blocks' pages back to the system (Linux; elsewhere they stay).
    pub(super) fn release(&mut self) {
        if std::mem::take(&mut self.resident) {
            release_pages(&mut self.blocks);
        }
    }
}

#[cfg(target_os = "linux")]
fn release_pages(blocks: &mut [Block]) {
    // SAFETY: sysconf has no preconditions.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return,
    };
    let start = blocks.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(blocks);
    // Whole pages inside the allocation only: the partial pages at either end may hold the
    // allocator's data.
    let (first, last) = (start.div_ceil(page) * page, end / page * page);
    if last <= first {
        return;
    }
    // SAFETY: [first, last) lies inside `blocks`, a private anonymous allocation borrowed mutably
    // here, so nothing reads or writes it meanwhile. After MADV_DONTNEED its pages read as zeros,
    // and all-zero is a valid `Block` (128 u64s).
    let _ = unsafe {
        libc::madvise(
            first as *mut libc::c_void,
            last - first,
            libc::MADV_DONTNEED,
        )
    };
}

#[cfg(not(target_os = "linux"))]
fn release_pages(_: &mut [Block]) {}

/// Held by the tests that measure the process's memory, so they do not measure each other.
#[cfg(all(test, target_os = "linux"))]
pub(super) static MEASURING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The process's resident anonymous memory (heap and the like), in KiB.
#[cfg(all(test, target_os = "linux"))]
pub(super) fn rss_anon_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("RssAnon:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn released_blocks_leave_the_resident_memory_and_stay_usable() {
        const MIB: usize = 64;
        let _alone = MEASURING.blocking_lock();
        let mut memory = Memory::new();
        let before = rss_anon_kib();
        let blocks = memory.blocks(MIB * 1024);
        blocks.iter_mut().for_each(|b| b.as_mut()[7] = 42);
        let held = rss_anon_kib();
        assert!(
            held >= before + (MIB as u64 - 8) * 1024,
            "{MIB} MiB written: {before} KiB then {held} KiB"
        );

        memory.release();
        let after = rss_anon_kib();
        assert!(
            after + (MIB as u64 - 8) * 1024 <= held,
            "released: {held} KiB then {after} KiB"
        );

        let blocks = memory.blocks(MIB * 1024);
        assert_eq!(blocks.len(), MIB * 1024);
        blocks[100].as_mut()[0] = 1;
        assert_eq!(blocks[100].as_ref()[0], 1);
    }
}
