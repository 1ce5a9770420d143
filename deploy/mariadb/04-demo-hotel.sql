-- A demo hotel for the compose stack's mariadb service (docs/database.md), loaded after the Arcturus
-- Morningstar tables (test/fixtures/arcturus/01-03): a few players (one banned), a room on a default
-- model, and the emulator's default group badge elements (03-guilds-elements.sql).
SET NAMES utf8mb4;
INSERT INTO users (id, username, password, account_created, motto, look, gender, ip_register, ip_current) VALUES
  (1, 'Demo', '', UNIX_TIMESTAMP(), 'hotel-imager demo', 'hd-180-1.ch-210-66.lg-270-82.sh-290-80.hr-100-40', 'M', '127.0.0.1', '127.0.0.1'),
  (2, 'Alice', '', UNIX_TIMESTAMP(), '', 'hd-600-1.ch-630-62.lg-695-62.sh-725-62.hr-515-33', 'F', '127.0.0.1', '127.0.0.1'),
  (3, 'Bob', '', UNIX_TIMESTAMP(), '', 'hd-185-2.ch-210-66.lg-270-82.sh-290-80.hr-110-61', 'M', '127.0.0.1', '127.0.0.1'),
  (4, 'Banned', '', UNIX_TIMESTAMP(), '', 'hd-180-1.ch-210-66.lg-270-82', 'M', '127.0.0.1', '127.0.0.1');
-- Banned for good (the emulator's ban_expire is a Unix time; this one is 2038).
INSERT INTO bans (user_id, ip, machine_id, user_staff_id, timestamp, ban_expire, ban_reason, type) VALUES
  (4, '', '', 1, UNIX_TIMESTAMP(), 2147483647, 'demo ban', 'account');
INSERT INTO rooms (id, owner_id, owner_name, name, description, model, paper_floor, paper_wall) VALUES
  (1, 1, 'Demo', 'Demo lobby', 'the demo hotel''s room', 'model_a', '110', '201');
