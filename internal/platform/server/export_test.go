package server

import "time"

// SetDrainTimer replaces the timer of s's drain period, so that a test ends
// the drain when its checks are done rather than racing a wall clock.
func SetDrainTimer(s *Server, timer func(time.Duration) <-chan time.Time) { s.drainTimer = timer }
