-- The avatar service's account: SELECT on the tables it reads, nothing else (docs/database.md).
CREATE USER IF NOT EXISTS 'imager'@'%' IDENTIFIED BY 'imager';
GRANT SELECT ON hotel.users TO 'imager'@'%';
GRANT SELECT ON hotel.bans TO 'imager'@'%';
GRANT SELECT ON hotel.guilds_elements TO 'imager'@'%';
GRANT SELECT ON hotel.rooms TO 'imager'@'%';
GRANT SELECT ON hotel.room_models TO 'imager'@'%';
GRANT SELECT ON hotel.room_models_custom TO 'imager'@'%';
GRANT SELECT ON hotel.items TO 'imager'@'%';
GRANT SELECT ON hotel.items_base TO 'imager'@'%';
GRANT SELECT ON hotel.bots TO 'imager'@'%';
