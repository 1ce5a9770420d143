// A small Shockwave-era figure list (figuredata_oldschool.xml shape) of our own, no real data: its
// colours are the sample kit's palette colours, so numeric figures convert on the kit.
/** Our own small figure list in the old-school shape (no real data). */
export const OLD_FIGURE_XML = `<?xml version="1.0"?>
<genders>
  <male>
    <hr><sprite>100</sprite><parts><hr>1</hr></parts>
      <colours><colour>2E2A26</colour><colour>b0603a</colour></colours></hr>
    <hr><sprite>802</sprite><parts><hr>8</hr></parts><colours><colour>D8B040</colour></colours></hr>
    <hd><sprite>180</sprite><parts><hd>1</hd><fc>1</fc><ey>1</ey></parts>
      <colours><colour>EEC39A</colour><colour>F3D9A4</colour></colours></hd>
    <ch><sprite>210</sprite><parts><rs>1</rs><ch>1</ch><ls>1</ls></parts>
      <colours><colour>C83C3C</colour><colour>3C5AB4</colour></colours></ch>
    <lg><sprite>270</sprite><parts><lg>1</lg></parts><colours><colour>2A2A2A</colour></colours></lg>
    <sh><sprite>290</sprite><parts><sh>1</sh></parts><colours><colour>F0F0F0</colour></colours></sh>
    <sh><sprite>730</sprite><parts><sh>2</sh></parts><colours><colour>2A2A2A</colour></colours></sh>
  </male>
  <female>
    <ch><sprite>630</sprite><parts><ch>2</ch></parts><colours><colour>3C5AB4</colour></colours></ch>
  </female>
</genders>
`;
