#pragma once
// A scoped s4u mutex lock for actors that may be killed (the daemons - SSD writer, data
// mover, SL arbiter - are killed when the run ends, wherever they are).
//
// SimGrid 3.32 kills an actor by throwing ForcefulKillException from its next simcall,
// and unlocking an s4u::Mutex is a simcall. A std::unique_lock unlocks in its destructor,
// which is noexcept: killed there, or unlocking while the kill unwinds its stack, the
// process terminates. ScopedLock unlocks in a destructor that may throw, and while an
// exception unwinds it lets go of the mutex without the simcall (the actor is dying; no
// actor survives a kill here).
#include <condition_variable>
#include <exception>
#include <mutex>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

namespace datasched {

class ScopedLock {
public:
  explicit ScopedLock(const simgrid::s4u::MutexPtr& mutex) : lock_(*mutex) {}
  ScopedLock(const ScopedLock&)            = delete;
  ScopedLock& operator=(const ScopedLock&) = delete;
  ~ScopedLock() noexcept(false)
  {
    if (!lock_.owns_lock())
      return;
    if (std::uncaught_exceptions() > exceptions_at_entry_)
      lock_.release();
    else
      lock_.unlock();
  }

  void wait(const simgrid::s4u::ConditionVariablePtr& cv) { cv->wait(lock_); }
  /// std::cv_status::timeout when woken by the date rather than a notification.
  std::cv_status wait_until(const simgrid::s4u::ConditionVariablePtr& cv, double time)
  {
    return cv->wait_until(lock_, time);
  }

private:
  std::unique_lock<simgrid::s4u::Mutex> lock_;
  int exceptions_at_entry_ = std::uncaught_exceptions();
};

} // namespace datasched
