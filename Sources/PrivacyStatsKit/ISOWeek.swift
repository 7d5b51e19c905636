/// ISO 8601 week dates.
enum ISOWeek {
    /// The ISO week of a moment (UTC), as `YYYY-Www`.
    static func key(secondsSince1970 seconds: Double) -> String {
        let days = Int((seconds / 86_400).rounded(.down))
        // 1970-01-01 was a Thursday; ISO weekday 1 = Monday … 7 = Sunday.
        let weekday = ((days + 3) % 7 + 7) % 7 + 1
        // The week belongs to the year of its Thursday.
        let thursday = days - weekday + 4
        let (year, dayOfYear) = yearAndDayOfYear(daysSince1970: thursday)
        let week = (dayOfYear - 1) / 7 + 1
        let weekText = week < 10 ? "0\(week)" : "\(week)"
        return "\(year)-W\(weekText)"
    }

    /// The civil year and the 1-based day of the year of a day count (proleptic Gregorian).
    private static func yearAndDayOfYear(daysSince1970 days: Int) -> (Int, Int) {
        var year = 1970 + days / 366
        while startOfYear(year + 1) <= days { year += 1 }
        while startOfYear(year) > days { year -= 1 }
        return (year, days - startOfYear(year) + 1)
    }

    /// Days from 1970-01-01 to January 1 of `year`.
    private static func startOfYear(_ year: Int) -> Int {
        let y = year - 1
        let leapDays = y / 4 - y / 100 + y / 400 - (1969 / 4 - 1969 / 100 + 1969 / 400)
        return (year - 1970) * 365 + leapDays
    }
}
