// SPDX-License-Identifier: BSD-2-Clause
/*
 * System reset through a GPIO line: "gpio-restart" (registers the reboot,
 * cold and warm alike: the line resets the whole machine) and
 * "gpio-poweroff" (registers the power-off; the HiFive Unmatched's PMIC
 * line).  The Linux bindings: gpios = <&controller pin flags>, flag bit 0 =
 * active low; delays in ms, "active-delay" / "inactive-delay" for restart,
 * "active-delay-ms" / "inactive-delay-ms" for power-off, 100 by default.
 * The line is driven inactive first, then active, so a level-triggered
 * device and an edge-triggered one both see their event whatever the
 * line's state was (gpio-poweroff binding: "inactive->active edge").
 */
#include "firmware/core/driver.h"
#include "drivers/gpio/sifive_gpio.h"
#include "firmware/core/platform.h"

#define GPIO_FLAG_ACTIVE_LOW 1u
#define GPIO_RESET_DEFAULT_DELAY_MS 100

struct gpio_reset {
	struct gpio_line line;
	uint32_t active_delay_ms, inactive_delay_ms;
};

static struct gpio_reset restart, poweroff;

/* Busy wait on mtime: the machine is going down, nothing else runs. */
static void delay_ms(uint32_t ms)
{
	uint64_t start, ticks;

	if (!platform.mtime || !platform.timebase_hz)
		return;
	start = *platform.mtime;
	ticks = platform.timebase_hz / 1000 * ms;
	while (*platform.mtime - start < ticks)
		;
}

static void line_set_active(const struct gpio_reset *r, bool active)
{
	r->line.drive(&r->line, active != r->line.active_low);
}

static void gpio_reset_fire(const struct gpio_reset *r)
{
	line_set_active(r, false);
	delay_ms(r->inactive_delay_ms);
	line_set_active(r, true);
	delay_ms(r->active_delay_ms);
}

static void gpio_restart_fire(void)
{
	gpio_reset_fire(&restart);
}

static void gpio_poweroff_fire(void)
{
	gpio_reset_fire(&poweroff);
}

/* The GPIO controllers the firmware can drive, by compatible. */
static int gpio_line_lookup(const struct fdt *fdt, int controller, uint32_t pin,
			    struct gpio_line *line)
{
	return sifive_gpio_line(fdt, controller, pin, line);
}

/* The node's line and delays into `r`; 0, or -1 for a line the firmware
 * cannot drive. */
static int gpio_reset_parse(const struct fdt *fdt, int node, const char *active_delay,
			    const char *inactive_delay, struct gpio_reset *r)
{
	const uint8_t *gpios;
	uint32_t cells = 0;
	int len, controller;

	gpios = fdt_getprop(fdt, node, "gpios", &len);
	if (!gpios || len < 4)
		return -1;
	controller = fdt_find_phandle(fdt, fdt_be32(gpios));
	if (controller < 0 || fdt_prop_u32(fdt, controller, "#gpio-cells", &cells) < 0 ||
	    cells < 1 || len < (int)(4 * (1 + cells)))
		return -1;
	if (gpio_line_lookup(fdt, controller, fdt_be32(gpios + 4), &r->line) < 0)
		return -1;
	r->line.active_low = cells >= 2 && (fdt_be32(gpios + 8) & GPIO_FLAG_ACTIVE_LOW);
	r->active_delay_ms = GPIO_RESET_DEFAULT_DELAY_MS;
	r->inactive_delay_ms = GPIO_RESET_DEFAULT_DELAY_MS;
	fdt_prop_u32(fdt, node, active_delay, &r->active_delay_ms);
	fdt_prop_u32(fdt, node, inactive_delay, &r->inactive_delay_ms);
	return 0;
}

static int gpio_restart_probe(const struct fdt *fdt, int node, int parent)
{
	(void)parent;
	if (gpio_reset_parse(fdt, node, "active-delay", "inactive-delay", &restart) < 0)
		return -1;
	platform_register_reset(PLATFORM_REBOOT,
				&(struct reset_action){ .present = true, .fire = gpio_restart_fire }, false);
	return 0;
}

static int gpio_poweroff_probe(const struct fdt *fdt, int node, int parent)
{
	(void)parent;
	if (gpio_reset_parse(fdt, node, "active-delay-ms", "inactive-delay-ms", &poweroff) < 0)
		return -1;
	platform_register_reset(PLATFORM_POWEROFF,
				&(struct reset_action){ .present = true, .fire = gpio_poweroff_fire }, false);
	return 0;
}

DT_DRIVER(21, gpio_restart_driver, "gpio-restart", gpio_restart_probe);
DT_DRIVER(22, gpio_poweroff_driver, "gpio-poweroff", gpio_poweroff_probe);
