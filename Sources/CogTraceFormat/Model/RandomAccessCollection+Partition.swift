extension RandomAccessCollection {
    /// The first index whose element makes `belongs` true, in a collection ordered so that
    /// `belongs` is false and then true along it (a binary search); `endIndex` when none does.
    /// Turn lists, turn entries and keyframes are sorted, so a position in them is found in
    /// `log n` steps.
    package func partitioningIndex(where belongs: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
